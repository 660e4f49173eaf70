/* The playground's page, embedded with C23 #embed (as the runtime's source is). */
#include "PlaygroundPage.h"

#include <string.h>

static const unsigned char index_html[] = {
#embed "assets/index.html"
};
static const unsigned char style_css[] = {
#embed "assets/style.css"
};
static const unsigned char app_js[] = {
#embed "assets/app.js"
};
static const unsigned char mode_js[] = {
#embed "assets/kaleidoscope-mode.js"
};
static const unsigned char tree_js[] = {
#embed "assets/tree.js"
};
static const unsigned char explain_js[] = {
#embed "assets/explain.js"
};
static const unsigned char links_js[] = {
#embed "assets/links.js"
};
static const unsigned char step_js[] = {
#embed "assets/step.js"
};
static const unsigned char explanations_json[] = {
#embed "assets/explanations.json"
};
static const unsigned char favicon_svg[] = {
#embed "assets/favicon.svg"
};

#define KS_ASSET(name, type, array) {name, type, array, sizeof array}

static const ks_page_asset assets[] = {
  KS_ASSET("index.html", "text/html; charset=utf-8", index_html),
  KS_ASSET("style.css", "text/css; charset=utf-8", style_css),
  KS_ASSET("app.js", "text/javascript; charset=utf-8", app_js),
  KS_ASSET("kaleidoscope-mode.js", "text/javascript; charset=utf-8", mode_js),
  KS_ASSET("tree.js", "text/javascript; charset=utf-8", tree_js),
  KS_ASSET("explain.js", "text/javascript; charset=utf-8", explain_js),
  KS_ASSET("links.js", "text/javascript; charset=utf-8", links_js),
  KS_ASSET("step.js", "text/javascript; charset=utf-8", step_js),
  KS_ASSET("explanations.json", "application/json; charset=utf-8", explanations_json),
  KS_ASSET("favicon.svg", "image/svg+xml", favicon_svg),
};

const ks_page_asset *ks_page_asset_named(const char *name) {
  for (size_t i = 0; i < sizeof assets / sizeof assets[0]; i++) {
    if (strcmp(assets[i].name, name) == 0) return &assets[i];
  }
  return NULL;
}
