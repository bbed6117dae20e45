#ifndef CORESEED_CLIBXML2_SHIM_H
#define CORESEED_CLIBXML2_SHIM_H
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#endif
