"""URLs of the Review section (included by modeler.urls under a project's path)."""

from django.urls import path

from modeler.views import review

urlpatterns = [
    path("review/", review.review_page, name="review-page"),
    path("review/prices/", review.review_prices, name="review-prices"),
    path(
        "review/prices/reset/", review.review_prices_reset, name="review-prices-reset"
    ),
]
