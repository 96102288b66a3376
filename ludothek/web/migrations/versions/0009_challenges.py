"""Challenges, follows and quick pairing (issue 32, items 1 and 3).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _user(name: str, primary_key: bool = False) -> sa.Column:
    return sa.Column(name, sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=primary_key,
                     nullable=False)


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        _user("from_id"),
        _user("to_id"),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("note", sa.Text, nullable=True),
        sa.Column("game_id", sa.String(24), nullable=True),
        sa.Column("told", sa.Float, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("answered", sa.Float, nullable=True),
    )
    op.create_index("challenges_to", "challenges", ["to_id", "status"])
    op.create_index("challenges_from", "challenges", ["from_id", "status"])
    op.create_table(
        "follows",
        _user("follower_id", True),
        _user("followed_id", True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("follows_followed", "follows", ["followed_id"])
    op.create_table("presence", _user("user_id", True), sa.Column("seen", sa.Float, nullable=False))
    op.create_table("challenge_settings", _user("user_id", True), sa.Column("accept", sa.String(10), nullable=False))
    op.create_table(
        "quick_pairing",
        _user("user_id", True),
        sa.Column("pool", sa.String(48), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("game_id", sa.String(24), nullable=True),
    )
    op.create_index("quick_pairing_pool", "quick_pairing", ["pool"])


def downgrade() -> None:
    for name in ("quick_pairing", "challenge_settings", "presence", "follows", "challenges"):
        op.drop_table(name)
