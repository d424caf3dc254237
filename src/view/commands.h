// The console commands carried out. Commands holds the lines waiting to run (typed in the console,
// picked in the panels, and the --exec script, one scripted line a frame) and turns each parsed
// command (console.h) into what it changes: the crowd (technique, members, raster, impostors,
// culling) through its LiveCrowd, the rest through the CommandHost (the viewer; tests give their own). Every line is
// logged ("> line"), then what happened, or "error: ..." when it changed nothing.
#pragma once

#include "console.h"
#include "crowd_state.h"

#include "../render/views.h"

#include <throng/camera.h>

#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace throng::view {

// What the commands change outside the crowd.
class CommandHost {
  public:
    virtual ~CommandHost() = default;
    virtual void log(const std::string& line) = 0; // to stdout and the console
    // crowd.apply(want) and what goes with it (the viewer: forgets pending timestamps and, with
    // `reframe`, points the camera at the new crowd). False: crowd.lastError() says why.
    virtual bool applyState(const CrowdState& want, bool reframe) = 0;
    virtual void setSpeed(float speed) = 0;
    virtual const char* setVsync(bool on) = 0;                // returns the present mode now in use
    virtual void setView(render::ViewKind view) = 0;          // places the camera
    virtual void setCamera(const throng::Camera& camera) = 0; // places it there (throng/camera.h)
    virtual std::string cameraText() = 0;                     // where it stands, as `--camera` takes it
    virtual void setOverlay(bool shown) = 0;                  // the panel (FPS, time ruler, switches); not the console
    virtual void setLight(float azimuth_degrees, float elevation_degrees) = 0; // the sun of the next frames
    virtual void resizeWindow(uint32_t width, uint32_t height) = 0;
    virtual bool screenshot(const std::string& path) = 0; // false: this swapchain's images cannot be copied
    virtual std::string statsLine() = 0;
    virtual void quit() = 0;
};

class Commands {
  public:
    // `script`: --exec, ';'-separated. `crowd` and `host` must outlive the Commands.
    Commands(LiveCrowd& crowd, CommandHost& host, std::string_view script);

    // Parses and carries out one line. False (and an "error: ..." line) when it changed nothing.
    bool execute(const std::string& line);
    // A line typed in the console or picked in a panel, run by the next runPending().
    void type(std::string line) { typed_.push_back(std::move(line)); }
    // Between frames: every typed line, then the next scripted line unless `wait N` is still
    // counting frames down or `screenshot_waiting` (a screenshot is taken before the script goes on).
    // A scripted line that fails marks the run failed.
    void runPending(bool screenshot_waiting);

    void fail() { failed_ = true; } // something scripted failed later (a screenshot not written)
    bool failed() const { return failed_; }
    size_t scriptLeft() const { return script_.size(); }

  private:
    bool apply(const Command& c);
    std::string modelsLine() const;                    // the `models` command's line
    bool change(const CrowdState& want, bool reframe); // applyState, or an error line
    bool changeClip(const std::string& name);
    bool changePrecision(const std::string& name);

    LiveCrowd& crowd_;
    CommandHost& host_;
    std::vector<std::string> typed_;
    std::deque<std::string> script_;
    uint32_t wait_frames_ = 0;
    bool failed_ = false;
};

} // namespace throng::view
