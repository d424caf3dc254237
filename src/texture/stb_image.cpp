// The one translation unit that compiles stb_image (Debian libstb-dev's header): the decoder
// behind texture::decodeTexture. stb_image_write lives with the PNG writer (gpu/stb_impl.cpp).
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#define STBI_MAX_DIMENSIONS 16384 // a hostile header cannot ask for more (the default is 2^24 per side)
#include <stb/stb_image.h>
