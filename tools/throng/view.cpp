// `throng view`: the interactive viewer (src/view). This file only hands the options over.
#include "commands.h"

#include <throng/view.h>

namespace throng::cli {

int runView(const view::ViewerOptions& options) { return view::runViewer(options); }

} // namespace throng::cli
