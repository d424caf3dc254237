// The one translation unit that compiles stb_image and stb_image_write (Debian libstb-dev headers).
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#define STBI_MAX_DIMENSIONS 16384 // a hostile header cannot ask for more (the default is 2^24 per side)
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
