// md4c, the CommonMark + GFM parser (Debian libmd4c-dev, pkg-config md4c).
// Swift calls md_parse directly; its callbacks' text pointers point into the input.
#include <md4c.h>
