#ifndef CORESEED_CCRYPTO_SHIM_H
#define CORESEED_CCRYPTO_SHIM_H
#include <openssl/sha.h>
#include <openssl/evp.h>
#endif
