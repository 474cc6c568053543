"""Pages of the scoring app (the calculator)."""

from django.urls import path

from rules_web import calculator_views as views

urlpatterns = [
    path("calculator/", views.calculator_page, name="calculator"),
]
