#ifndef ALARMD_CCANBERRA_SHIM_H
#define ALARMD_CCANBERRA_SHIM_H
#include <canberra.h>
#endif
