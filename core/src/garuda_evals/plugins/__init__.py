"""Finding plugins: the pluggy manager and the stevedore drivers."""
