int ks_placeholder(void) { return 0; }
