"""Players (issue 11): rated games and their ratings, correspondence deadlines, whose turn it
is, and the lobby's seeks.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rated", sa.Integer, nullable=False, server_default="0"))
    op.add_column("games", sa.Column("to_move", sa.Integer, nullable=True))
    op.add_column("games", sa.Column("deadline", sa.Float, nullable=True))
    op.add_column("games", sa.Column("ratings", sa.Text, nullable=True))
    op.add_column("games", sa.Column("winner", sa.Integer, nullable=True))
    op.create_index("games_deadline", "games", ["deadline"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("value", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ratings_game_value", "ratings", ["game", "value"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(24), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("value", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
    )
    op.create_index("rating_history_user", "rating_history", ["user_id", "game", "at"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("user_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("game_id", sa.String(24), nullable=True),
    )
    # the new columns of games made before are filled by the server when it starts
    # (GameService.backfill: it replays those games)


def downgrade() -> None:
    op.drop_table("seeks")
    op.drop_index("rating_history_user", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ratings_game_value", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("games_deadline", table_name="games")
    op.drop_column("games", "winner")
    op.drop_column("games", "ratings")
    op.drop_column("games", "deadline")
    op.drop_column("games", "to_move")
    op.drop_column("games", "rated")
