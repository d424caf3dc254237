# The H100 calls of issue #25's seventh session (docs/BENCHMARKS.md, "Large triangles in the
# compute raster"), as run from .device/ (git-excluded): throng_old the build before the raster's
# blocks (bf34557), throng the build under test (the first call b4c4a2c, the second ce13a6b).
# The first call (raw reports beside this file) ran the loop below with one more run after
# walker-overview, `br $v-kit-overview builtin:kit --techniques baked --instances 1000000
# --raster compute`, and not the one- and ten-model runs after it; the second (call2/) ran this.
# The blocks of the compute raster (this session) against the build before them, one call.
source tools/device_common.sh
br() { local name=$1; shift; run "$name" --size 1920x1080 --frames 10 --warmup 3 "$@"; }
for v in old new; do
  if [ $v = old ]; then throng=.device/bin/throng_old; else throng=.device/bin/throng; fi
  br $v-walker-street --techniques baked --instances 100000 --view street
  br $v-kit-street builtin:kit --techniques baked --instances 100000 --view street
  br $v-walker-street-compute --techniques baked --instances 100000 --view street --raster compute
  br $v-kit-street-compute builtin:kit --techniques baked --instances 100000 --view street --raster compute
  br $v-walker-overview --techniques baked --instances 1000000 --raster compute
  br $v-walker-street-shadows --techniques baked --instances 100000 --view street --shadows 2048
done
(cd "$out" && tar czf exp2_json.tgz *.json && rm -f *.json)
throng=.device/bin/throng
d=.device/assets
ten="builtin:walker builtin:strider builtin:waver builtin:fish builtin:twist $d/CesiumMan.glb $d/Fox.glb $d/RobotExpressive.glb $d/RiggedSimple.glb $d/animation_with_skeleton.fbx"
br new-one-compute --techniques baked --instances 1000000 --simulate --raster compute
br new-ten-compute $ten --model-size 1.8 --techniques baked --instances 1000000 --simulate --raster compute
(cd "$out" && tar czf exp3_json.tgz *.json && rm -f *.json)
