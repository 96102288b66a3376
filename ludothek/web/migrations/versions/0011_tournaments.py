"""Tournaments (issue 32): Swiss and Arena tournaments, their players and their games.

Revision ID: 0011
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),  # swiss or arena
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),  # JSON: name, options, clock, rated, rounds or minutes
        sa.Column("creator", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),  # open, running, over
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("first", sa.Integer, nullable=False),  # user id in seat 0 (or with the bye)
        sa.Column("second", sa.Integer, nullable=True),  # None: a bye
        sa.Column("game_id", sa.String(16), nullable=True),
        sa.Column("score", sa.Float, nullable=True),  # seat 0's, None while the game runs
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("tournament_games_game", "tournament_games", ["game_id"])


def downgrade() -> None:
    op.drop_index("tournament_games_game", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
