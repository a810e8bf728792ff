"""URLs of the Review section (included by modeler.urls)."""

from django.urls import path

from modeler.views import review

P = "projects/<int:project_id>/"

urlpatterns = [
    path(f"{P}review/", review.review_page, name="review-page"),
    path(f"{P}review/prices/", review.review_prices, name="review-prices"),
    path(
        f"{P}review/prices/reset/",
        review.review_prices_reset,
        name="review-prices-reset",
    ),
]
