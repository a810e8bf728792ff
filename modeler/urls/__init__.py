from django.contrib.auth import views as auth_views
from django.urls import include, path

from modeler.forms.accounts import LoginForm
from modeler.views import (
    accounts,
    history,
    history_migration,
    members,
    present,
    projects,
    reviews,
    simulation,
)

# A project's pages and actions share this prefix: each section's module
# lists its own, and project_urlpatterns the rest.
PROJECT = "projects/<int:project_id>/"

project_urlpatterns = [
    path("", projects.project_detail, name="project-detail"),
    path("undo/", history.undo, name="history-undo"),
    path("redo/", history.redo, name="history-redo"),
    path("undo-bar/", history.undo_bar, name="history-undo-bar"),
    path("presence/", history.presence, name="presence"),
    path("history/", history.history_page, name="history-page"),
    path("reviews/", reviews.reviews_page, name="reviews-page"),
    path(
        "reviews/approval-rule/",
        reviews.review_approval_rule,
        name="review-approval-rule",
    ),
    path("reviews/<int:pk>/", reviews.review_session, name="review-session"),
    path(
        "reviews/<int:pk>/seen/",
        reviews.review_session_seen,
        name="review-session-seen",
    ),
    path("reviews/<int:pk>/minutes/", reviews.review_minutes, name="review-minutes"),
    path(
        "reviews/<int:pk>/minutes/prepare/",
        reviews.review_minutes_prepare,
        name="review-minutes-prepare",
    ),
    path("reviews/<int:pk>/comments/", reviews.review_comment, name="review-comment"),
    path(
        "reviews/<int:pk>/comments/<int:comment_id>/resolve/",
        reviews.review_comment_resolve,
        name="review-comment-resolve",
    ),
    path("reviews/pack/<int:number>/", reviews.review_pack, name="review-pack"),
    path("reviews/share-links/", reviews.share_links, name="share-links"),
    path(
        "reviews/share-links/<int:pk>/revoke/",
        reviews.share_link_revoke,
        name="share-link-revoke",
    ),
    path("present/<int:position>/", present.present, name="present"),
    path(
        "reviews/<int:pk>/present/<int:position>/",
        present.review_present,
        name="review-present",
    ),
    path("reviews/<int:pk>/status/", reviews.review_status, name="review-status"),
    path("history/compare/", history.history_compare, name="history-compare"),
    path(
        "history/compare/migration/",
        history_migration.history_migration,
        name="history-migration",
    ),
    path(
        "history/compare/migration/script.py",
        history_migration.history_migration_script,
        name="history-migration-script",
    ),
    path(
        "history/compare/migration/plan.txt",
        history_migration.history_migration_plan,
        name="history-migration-plan",
    ),
    path(
        "history/compare/migration/alternative.yaml",
        history_migration.history_migration_alternative,
        name="history-migration-alternative",
    ),
    path(
        "history/compare/migration/alternative/save/",
        history_migration.history_migration_alternative_save,
        name="history-migration-alternative-save",
    ),
    path(
        "history/compare/migration/<str:fmt>.zip",
        history_migration.history_migration_iac,
        name="history-migration-iac",
    ),
    path(
        "history/compare/consequences/",
        history.history_consequences,
        name="history-consequences",
    ),
    path(
        "history/<int:number>/design.yaml", history.revision_yaml, name="history-yaml"
    ),
    path("history/<int:number>/label/", history.revision_label, name="history-label"),
    path(
        "history/<int:number>/restore/",
        history.revision_restore,
        name="history-restore",
    ),
    path("design.yaml", projects.project_export, name="project-export"),
    path("delete/", projects.project_delete, name="project-delete"),
    path("members/", members.project_members, name="project-members"),
    path(
        "members/<int:membership_id>/remove/",
        members.project_member_remove,
        name="project-member-remove",
    ),
    path(
        "invitations/<int:invitation_id>/cancel/",
        members.project_invitation_cancel,
        name="project-invitation-cancel",
    ),
    path("simulation/", simulation.simulation_page, name="simulation-page"),
    path(
        "simulation/<int:position>/",
        simulation.simulation_pattern,
        name="simulation-pattern",
    ),
    path(
        "simulation/jobs/<int:job_id>/",
        simulation.simulation_progress,
        name="simulation-progress",
    ),
    path(
        "simulation/jobs/<int:job_id>/cancel/",
        simulation.simulation_cancel,
        name="simulation-cancel",
    ),
    path("simulation/run/", simulation.simulation_rerun, name="simulation-rerun"),
    path("simulation/start/", simulation.simulation_start, name="simulation-start"),
    path(
        "simulation/indicator/",
        simulation.simulation_indicator,
        name="simulation-indicator",
    ),
    path("simulation/seed/", simulation.simulation_seed, name="simulation-seed"),
    path(
        "simulation/items/",
        simulation.simulation_items_import,
        name="simulation-items-import",
    ),
    path(
        "simulation/items/remove/",
        simulation.simulation_items_remove,
        name="simulation-items-remove",
    ),
    path(
        "simulation/sample-data.jsonl",
        simulation.simulation_download,
        name="simulation-download",
    ),
]

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
        "password-reset/", accounts.PasswordResetView.as_view(), name="password_reset"
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
    path(PROJECT, include("modeler.urls.diagrams")),
    path(PROJECT, include("modeler.urls.editor")),
    path(PROJECT, include("modeler.urls.review")),
    path(PROJECT, include("modeler.urls.export")),
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
    path(PROJECT, include(project_urlpatterns)),
    path("share/<str:token>/", reviews.shared_pack, name="shared-pack"),
    path(
        "invitations/<str:token>/", members.invitation_accept, name="invitation-accept"
    ),
]
