"""games.dice_secret (the per-game secret every roll derives from, revealed when the game
ends), games.reason (the rule that ended a game) and games.offer (a pending takeback or
draw offer).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("dice_secret", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("reason", sa.String(24), nullable=True))
    op.add_column("games", sa.Column("offer", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "offer")
    op.drop_column("games", "reason")
    op.drop_column("games", "dice_secret")
