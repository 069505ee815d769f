/**
 * @file cairn/export.h
 * @brief The macros that mark cairn's public functions for export from a
 * shared library. Part of cairn/core.h; every public header includes it.
 *
 * cairn's libraries are built with hidden symbols: only the declarations
 * marked here are exported, so a shared library offers the public API and
 * nothing else. A program using cairn defines nothing.
 */
#ifndef CAIRN_EXPORT_H
#define CAIRN_EXPORT_H

/** @cond CAIRN_INTERNAL */
#if defined(_WIN32) || defined(__CYGWIN__)
/* A DLL exports what its build marks; a program calls the functions
 * through the import library, which needs no mark. */
#if defined(CAIRN_SHARED_BUILD)
#define CAIRN__EXPORT __declspec(dllexport)
#else
#define CAIRN__EXPORT
#endif
#define CAIRN__IMPORT
#elif defined(__GNUC__) || defined(__clang__)
#define CAIRN__EXPORT __attribute__((visibility("default")))
#define CAIRN__IMPORT __attribute__((visibility("default")))
#else
#define CAIRN__EXPORT
#define CAIRN__IMPORT
#endif

#if defined(CAIRN_BUILDING_CORE)
#define CAIRN_CORE_API CAIRN__EXPORT
#else
#define CAIRN_CORE_API CAIRN__IMPORT
#endif
#if defined(CAIRN_BUILDING_HIERARCHY)
#define CAIRN_HIERARCHY_API CAIRN__EXPORT
#else
#define CAIRN_HIERARCHY_API CAIRN__IMPORT
#endif
#if defined(CAIRN_BUILDING_FLOWFIELD)
#define CAIRN_FLOWFIELD_API CAIRN__EXPORT
#else
#define CAIRN_FLOWFIELD_API CAIRN__IMPORT
#endif
#if defined(CAIRN_BUILDING_CROWD)
#define CAIRN_CROWD_API CAIRN__EXPORT
#else
#define CAIRN_CROWD_API CAIRN__IMPORT
#endif
/** @endcond */

#endif
