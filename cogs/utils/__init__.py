"""What every cog shares: error answers, restart-proof components, and event delivery."""
