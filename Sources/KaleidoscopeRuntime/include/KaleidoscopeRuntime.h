int ks_placeholder(void);
