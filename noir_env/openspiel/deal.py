"""The deal of our OpenSpiel games: `DEAL_NODES` chance nodes of `DEAL_OUTCOMES` equally
likely outcomes each (the bytes of the deal's seed), and the seeds of the worlds that
`resample_from_infostate` re-deals. The state plays them, its serialized form bounds them and
the game declares them to OpenSpiel."""

DEAL_NODES = 4  # chance nodes before the deal: one byte of its 32-bit seed each
DEAL_OUTCOMES = 256  # equally likely outcomes of each
DEAL_SEEDS = DEAL_OUTCOMES**DEAL_NODES  # deals the chance nodes choose among
WORLD_SEEDS = 2**62  # seeds of the worlds resample_from_infostate re-deals
