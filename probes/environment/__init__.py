"""Machine detection: the Environment model every evidence file and record embeds."""
