/* The playground's page: its files, carried inside the server program (page.c) so that the
 * tool serves them without installing anything beside it. */
#ifndef KALEIDOSCOPE_PLAYGROUND_PAGE_H
#define KALEIDOSCOPE_PLAYGROUND_PAGE_H

#include <stddef.h>

/* One file of the page. */
typedef struct {
  const char *name;         /* the path under /, e.g. "app.js" */
  const char *content_type; /* its media type, with the charset */
  const unsigned char *bytes;
  size_t length;
} ks_page_asset;

/* The asset called `name`, or NULL. */
const ks_page_asset *ks_page_asset_named(const char *name);

#endif
