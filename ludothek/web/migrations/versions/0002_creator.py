"""games.creator (a hash of the creating client's address, for a per-client cap on live bot
games) and an index on (mode, status) to count them.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("games_mode_status", "games", ["mode", "status"])


def downgrade() -> None:
    op.drop_index("games_mode_status", table_name="games")
    op.drop_column("games", "creator")
