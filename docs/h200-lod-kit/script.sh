# The H200 call of issue #25's seventh session (docs/BENCHMARKS.md, "Coarse levels for every
# model; the kit's cost"): as run, from .device/ (git-excluded). `kit-none-*` ran a build of that
# session whose builtin:kit scaled every part's share by KIT_SHARE_SCALE (1e-6: no member wears a
# part; not committed), to measure what the slot workgroups that find nothing cost.
# scratch experiment (not committed): kit costs by parts worn; ten models with the new LOD chains
source tools/device_common.sh
br() { local name=$1; shift; run "$name" --size 1920x1080 --frames 10 --warmup 3 "$@"; }
br walker-street --techniques baked --instances 100000 --view street
br kit-street builtin:kit --techniques baked --instances 100000 --view street
br walker-street-nocache --techniques baked --instances 100000 --view street --vertex-cache 0
br kit-street-nocache builtin:kit --techniques baked --instances 100000 --view street --vertex-cache 0
export KIT_SHARE_SCALE=0.000001; throng=.device/bin/throng_exp; br kit-none-street builtin:kit --techniques baked --instances 100000 --view street
br kit-none-street-nocache builtin:kit --techniques baked --instances 100000 --view street --vertex-cache 0
unset KIT_SHARE_SCALE; throng=.device/bin/throng
br walker-street-compute --techniques baked --instances 100000 --view street --raster compute
br kit-street-compute builtin:kit --techniques baked --instances 100000 --view street --raster compute
d=.device/assets
ten="builtin:walker builtin:strider builtin:waver builtin:fish builtin:twist $d/CesiumMan.glb $d/Fox.glb $d/RobotExpressive.glb $d/RiggedSimple.glb $d/animation_with_skeleton.fbx"
sim="--techniques baked --instances 1000000 --simulate"
br one-compute $sim --raster compute
br ten-compute $ten --model-size 1.8 $sim --raster compute
br ten-compute-standing $ten --model-size 1.8 --techniques baked --instances 1000000 --raster compute
br one-compute-standing --techniques baked --instances 1000000 --raster compute
(cd "$out" && tar czf exp_json.tgz *.json && rm -f *.json)
