// The one translation unit that compiles stb_image_write (Debian libstb-dev's header), for the PNG
// writer (png.cpp). stb_image, the decoder, is compiled with the textures (texture/stb_image.cpp).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
