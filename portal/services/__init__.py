"""Domain services shared across blueprints."""
