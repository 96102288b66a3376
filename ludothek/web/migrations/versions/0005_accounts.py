"""Accounts (issue 11): users, their sessions, and the seats they own (games.user0/user1).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False),
        sa.Column("password", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("disabled", sa.Float, nullable=True),
    )
    op.create_index("users_name_key", "users", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("sessions_user", "sessions", ["user_id"])
    # no foreign key: SQLite cannot add one to an existing table without copying it
    op.add_column("games", sa.Column("user0", sa.Integer, nullable=True))
    op.add_column("games", sa.Column("user1", sa.Integer, nullable=True))
    op.create_index("games_user0", "games", ["user0"])
    op.create_index("games_user1", "games", ["user1"])


def downgrade() -> None:
    op.drop_index("games_user1", table_name="games")
    op.drop_index("games_user0", table_name="games")
    op.drop_column("games", "user1")
    op.drop_column("games", "user0")
    op.drop_index("sessions_user", table_name="sessions")
    op.drop_table("sessions")
    op.drop_index("users_name_key", table_name="users")
    op.drop_table("users")
