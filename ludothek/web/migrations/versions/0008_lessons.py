"""Lessons (issue 31): the lesson steps each account has done.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lesson_progress",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("step", sa.String(40), primary_key=True),
        sa.Column("done", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lesson_progress")
