"""REST API of the tournaments app."""

from rest_framework import serializers, viewsets

from tournaments.models import Player


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "contact", "rating", "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]


class PlayerViewSet(viewsets.ModelViewSet):
    """Players. Anyone may read; signed-in staff may write."""

    queryset = Player.objects.all()
    serializer_class = PlayerSerializer
