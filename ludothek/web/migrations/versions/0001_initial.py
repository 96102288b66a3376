"""The schema as Store created it before migrations: games and moves.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("position", sa.Text, nullable=True),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("token0", sa.String(64), nullable=True),
        sa.Column("token1", sa.String(64), nullable=True),
        sa.Column("invite", sa.String(64), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("result", sa.String(16), nullable=False),
        sa.Column("termination", sa.String(16), nullable=True),
        sa.Column("tags", sa.Text, nullable=False),
        sa.Column("clock", sa.Text, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("rematch_of", sa.String(24), nullable=True),
        sa.Column("rematch", sa.String(24), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("games_status_updated", "games", ["status", "updated"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("action", sa.Integer, nullable=False),
        sa.Column("text", sa.String(80), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_index("games_status_updated", table_name="games")
    op.drop_table("games")
