// throng/api.h — what a shared build of throng exports. Every public header declares its API
// between THRONG_API_BEGIN and THRONG_API_END; built with -DBUILD_SHARED_LIBS=ON, throng's code is
// compiled with hidden visibility (cmake/shared_libraries.cmake), so only those declarations reach
// the libraries' dynamic symbol tables. In a static build the two have no effect.
#pragma once

#define THRONG_API_BEGIN _Pragma("GCC visibility push(default)")
#define THRONG_API_END _Pragma("GCC visibility pop")
