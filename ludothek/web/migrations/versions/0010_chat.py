"""Chat with moderation (issue 32, item 2): messages, mutes and blocks, reports, sanctions.

Revision ID: 0010
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room", sa.String(40), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("chat_messages_room", "chat_messages", ["room", "id"])
    op.create_table(
        "chat_relations",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("other_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer, nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("context", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("chat_reports_message", "chat_reports", ["message_id", "reporter_id"], unique=True)
    op.create_table(
        "chat_sanctions",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("muted_until", sa.Float, nullable=True),
        sa.Column("banned", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("chat_sanctions")
    op.drop_index("chat_reports_message", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_table("chat_relations")
    op.drop_index("chat_messages_room", table_name="chat_messages")
    op.drop_table("chat_messages")
