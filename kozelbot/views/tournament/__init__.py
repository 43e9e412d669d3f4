"""What a tournament says and draws: the registration post, the standings message and the
standings picture (PNG) with its layout and fonts."""
