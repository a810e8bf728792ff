from django.contrib.auth import views as auth_views
from django.urls import include, path

from modeler.forms.accounts import LoginForm
from modeler.views import (
    accounts,
    history,
    members,
    projects,
    reviews,
    simulation,
)

urlpatterns = [
    path(
        "login/",
        auth_views.LoginView.as_view(
            redirect_authenticated_user=True, authentication_form=LoginForm
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", accounts.signup, name="signup"),
    path(
        "signup/confirm/<str:uid>/<str:token>/",
        accounts.signup_confirm,
        name="signup-confirm",
    ),
    path("account/", accounts.account, name="account"),
    path("account/password/", accounts.account_password, name="account-password"),
    path("account/email/", accounts.account_email, name="account-email"),
    path(
        "account/email/confirm/<str:token>/",
        accounts.account_email_confirm,
        name="account-email-confirm",
    ),
    # Django's password reset, by email: the same answer for any address.
    path(
        "password-reset/",
        accounts.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("", include("modeler.urls.diagrams")),
    path("", include("modeler.urls.editor")),
    path("", include("modeler.urls.review")),
    path("", include("modeler.urls.export")),
    path("", projects.project_list, name="project-list"),
    path("projects/new/", projects.project_create, name="project-create"),
    path("projects/import/", projects.project_import, name="project-import"),
    path(
        "projects/import/table/",
        projects.project_import_table,
        name="project-import-table",
    ),
    path(
        "projects/examples/<slug:slug>/",
        projects.project_from_example,
        name="project-from-example",
    ),
    path("projects/<int:project_id>/", projects.project_detail, name="project-detail"),
    path("projects/<int:project_id>/undo/", history.undo, name="history-undo"),
    path("projects/<int:project_id>/redo/", history.redo, name="history-redo"),
    path(
        "projects/<int:project_id>/undo-bar/",
        history.undo_bar,
        name="history-undo-bar",
    ),
    path(
        "projects/<int:project_id>/presence/",
        history.presence,
        name="presence",
    ),
    path(
        "projects/<int:project_id>/history/",
        history.history_page,
        name="history-page",
    ),
    path(
        "projects/<int:project_id>/reviews/",
        reviews.reviews_page,
        name="reviews-page",
    ),
    path(
        "projects/<int:project_id>/reviews/<int:pk>/",
        reviews.review_session,
        name="review-session",
    ),
    path(
        "projects/<int:project_id>/reviews/<int:pk>/seen/",
        reviews.review_session_seen,
        name="review-session-seen",
    ),
    path(
        "projects/<int:project_id>/reviews/<int:pk>/comments/",
        reviews.review_comment,
        name="review-comment",
    ),
    path(
        "projects/<int:project_id>/reviews/<int:pk>/comments/<int:comment_id>/resolve/",
        reviews.review_comment_resolve,
        name="review-comment-resolve",
    ),
    path(
        "projects/<int:project_id>/reviews/pack/<int:number>/",
        reviews.review_pack,
        name="review-pack",
    ),
    path(
        "projects/<int:project_id>/reviews/share-links/",
        reviews.share_links,
        name="share-links",
    ),
    path(
        "projects/<int:project_id>/reviews/share-links/<int:pk>/revoke/",
        reviews.share_link_revoke,
        name="share-link-revoke",
    ),
    path("share/<str:token>/", reviews.shared_pack, name="shared-pack"),
    path(
        "projects/<int:project_id>/present/<int:position>/",
        simulation.present,
        name="present",
    ),
    path(
        "projects/<int:project_id>/reviews/<int:pk>/status/",
        reviews.review_status,
        name="review-status",
    ),
    path(
        "projects/<int:project_id>/history/compare/",
        history.history_compare,
        name="history-compare",
    ),
    path(
        "projects/<int:project_id>/history/compare/consequences/",
        history.history_consequences,
        name="history-consequences",
    ),
    path(
        "projects/<int:project_id>/history/<int:number>/design.yaml",
        history.revision_yaml,
        name="history-yaml",
    ),
    path(
        "projects/<int:project_id>/history/<int:number>/label/",
        history.revision_label,
        name="history-label",
    ),
    path(
        "projects/<int:project_id>/history/<int:number>/restore/",
        history.revision_restore,
        name="history-restore",
    ),
    path(
        "projects/<int:project_id>/design.yaml",
        projects.project_export,
        name="project-export",
    ),
    path(
        "projects/<int:project_id>/delete/",
        projects.project_delete,
        name="project-delete",
    ),
    path(
        "projects/<int:project_id>/members/",
        members.project_members,
        name="project-members",
    ),
    path(
        "projects/<int:project_id>/members/<int:membership_id>/remove/",
        members.project_member_remove,
        name="project-member-remove",
    ),
    path(
        "projects/<int:project_id>/invitations/<int:invitation_id>/cancel/",
        members.project_invitation_cancel,
        name="project-invitation-cancel",
    ),
    path(
        "invitations/<str:token>/",
        members.invitation_accept,
        name="invitation-accept",
    ),
    path(
        "projects/<int:project_id>/simulation/",
        simulation.simulation_page,
        name="simulation-page",
    ),
    path(
        "projects/<int:project_id>/simulation/<int:position>/",
        simulation.simulation_pattern,
        name="simulation-pattern",
    ),
    path(
        "projects/<int:project_id>/simulation/jobs/<int:job_id>/",
        simulation.simulation_progress,
        name="simulation-progress",
    ),
    path(
        "projects/<int:project_id>/simulation/jobs/<int:job_id>/cancel/",
        simulation.simulation_cancel,
        name="simulation-cancel",
    ),
    path(
        "projects/<int:project_id>/simulation/run/",
        simulation.simulation_rerun,
        name="simulation-rerun",
    ),
    path(
        "projects/<int:project_id>/simulation/start/",
        simulation.simulation_start,
        name="simulation-start",
    ),
    path(
        "projects/<int:project_id>/simulation/indicator/",
        simulation.simulation_indicator,
        name="simulation-indicator",
    ),
    path(
        "projects/<int:project_id>/simulation/seed/",
        simulation.simulation_seed,
        name="simulation-seed",
    ),
    path(
        "projects/<int:project_id>/simulation/items/",
        simulation.simulation_items_import,
        name="simulation-items-import",
    ),
    path(
        "projects/<int:project_id>/simulation/items/remove/",
        simulation.simulation_items_remove,
        name="simulation-items-remove",
    ),
    path(
        "projects/<int:project_id>/simulation/sample-data.jsonl",
        simulation.simulation_download,
        name="simulation-download",
    ),
]
