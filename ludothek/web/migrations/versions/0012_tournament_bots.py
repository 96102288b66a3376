"""Bots in casual tournaments (issue 32): the bot levels a tournament's creator invited.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_bots",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        # the bot's player number in the tournament's games: -1, -2, ... (accounts count up from 1)
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("agent", sa.String(32), nullable=False),  # a bot level, e.g. bot:3
        sa.Column("joined", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_bots")
