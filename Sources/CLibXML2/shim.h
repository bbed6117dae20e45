#ifndef CORESEED_CLIBXML2_SHIM_H
#define CORESEED_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/// libxml2's encoding.h pulls in the system ICU headers when built with ICU; their `UErrorCode`
/// clashes with Foundation's bundled `_FoundationICU` in the same Swift module. CoreSeed never
/// touches the ICU converter fields (only `xmlCharEncodingHandler` has them), so hide them.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#endif
