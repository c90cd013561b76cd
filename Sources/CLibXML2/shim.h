// The parts of libxml2 Intranet uses: the tolerant HTML parser, the tree API and the XML reader.
// Headers come from pkg-config (libxml-2.0): /usr/include/libxml2 on Debian (libxml2-dev).
#ifndef INTRANET_CLIBXML2_SHIM_H
#define INTRANET_CLIBXML2_SHIM_H

#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so encoding.h would include the system's ICU headers, whose
// UErrorCode clashes with the copy inside Foundation (_FoundationICU) and breaks the build.
// Nothing here uses libxml2's ICU converters: only two trailing members of
// xmlCharEncodingHandler, which this client never touches, depend on the macro.
#undef LIBXML_ICU_ENABLED

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

#endif
