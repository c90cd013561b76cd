// cmark-gfm, GitHub's CommonMark implementation, and its extensions (tables, strikethrough,
// autolinks): what turns an editor's Markdown into HTML. Debian: libcmark-gfm-dev and
// libcmark-gfm-extensions-dev.
#ifndef INTRANET_CCMARKGFM_SHIM_H
#define INTRANET_CCMARKGFM_SHIM_H

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

#endif
