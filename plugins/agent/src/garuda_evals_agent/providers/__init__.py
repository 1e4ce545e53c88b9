"""Model providers: each turns the neutral conversation into one provider's wire protocol."""
