"""Discord cogs: thin adapters from slash commands and components to the table service."""
