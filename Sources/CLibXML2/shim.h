#ifndef CORESEED_CLIBXML2_SHIM_H
#define CORESEED_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/// libxml2's encoding.h pulls in the system ICU headers when built with ICU; their `UErrorCode`
/// clashes with Foundation's bundled `_FoundationICU` in the same Swift module. CoreSeed never
/// touches the ICU converter fields (only `xmlCharEncodingHandler` has them), so hide them.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/dict.h>
#include <libxml/valid.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlerror.h>

/// `XML_SAX2_MAGIC` as a typed constant (the macro's literal does not fit Swift's `Int32`).
static const unsigned int coreseed_xml_sax2_magic = XML_SAX2_MAGIC;
#endif
