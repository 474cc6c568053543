"""Pages of the scoring app (the calculator)."""

from django.urls import path

from scoring import views

urlpatterns = [
    path("calculator/", views.calculator_page, name="calculator"),
]
