/**
 * @file cairn/version.h
 * @brief The version of the headers (CAIRN_VERSION_*) and of the library
 * linked (cairn_version). Part of cairn/core.h.
 *
 * The build reads the numbers from this file, so they are defined here
 * only. A shared library's SONAME carries the major version (major.minor
 * while the major is 0): a program runs against any library with the same.
 */
#ifndef CAIRN_VERSION_H
#define CAIRN_VERSION_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Major version: changes break the API or the ABI. */
#define CAIRN_VERSION_MAJOR 0
/** Minor version: additions (and, while the major is 0, breaking changes). */
#define CAIRN_VERSION_MINOR 1
/** Patch version: fixes only. */
#define CAIRN_VERSION_PATCH 0
/** The version as a string, "MAJOR.MINOR.PATCH". */
#define CAIRN_VERSION_STRING "0.1.0"

/** The version of the library linked, "MAJOR.MINOR.PATCH": it can differ
 * from CAIRN_VERSION_STRING when a program runs against a shared library
 * other than the one it was built with.
 * @return a static string */
CAIRN_CORE_API const char *cairn_version(void);

#ifdef __cplusplus
}
#endif
#endif
