# examples/godot-crowd: a crowd played by Godot 3 from what `throng bake --export DIR` writes
# (mesh.gltf, animation.exr or vat.exr, throng.json; docs/EXPORT.md), one MultiMesh of members
# whose shader (crowd.shader) evaluates docs/EXPORT.md's formula. The members come from
# `throng render --members FILE` (the same places, clips, times and tints as throng's picture);
# without one, a grid of members. README.md here says how to run it.
#
#   godot3 --path examples/godot-crowd -- --export=DIR [--members=FILE] [--vat] [--time=T]
#          [--out=PICTURE.png] [--frames=N]
#
# With --out it draws N frames (3) at the members file's time (or --time), writes the last as a
# PNG and quits; without, it plays the crowd in a window. Errors: one line, exit code 1.
extends Spatial

const ExportMesh = preload("res://export_mesh.gd")
const SKIN_WIDTH = 8192  # texels a row of the skin data (2 a vertex)

var options = {"export": "", "members": "", "out": "", "vat": false, "time": null, "frames": 3}
var material_list = []
var crowd_time = 0.0
var frame = 0


func fail(message: String):
	printerr("godot-crowd: error: " + message)
	get_tree().quit(1)
	set_process(false)


func _ready():
	for arg in OS.get_cmdline_args():
		if arg == "--vat":
			options.vat = true
		elif arg.begins_with("--") and arg.find("=") > 0:
			var key = arg.substr(2, arg.find("=") - 2)
			var value = arg.substr(arg.find("=") + 1)
			if key in ["export", "members", "out"]:
				options[key] = value
			elif key == "time" and value.is_valid_float():
				options.time = float(value)
			elif key == "frames" and value.is_valid_integer() and int(value) >= 1:
				options.frames = int(value)
			else:
				return fail("'" + arg + "': expected --export=DIR, --members=FILE, --vat, --time=T, --out=FILE or --frames=N")
	if options.export == "":
		return fail("--export=DIR is required: a folder `throng bake MODEL --export DIR` wrote")
	var descriptor = read_json(options.export.plus_file("throng.json"))
	if descriptor == null:
		return
	if descriptor.get("format") != "throng-export" or int(descriptor.get("version", 0)) != 1:
		return fail(options.export + "/throng.json: not a throng export of version 1")
	if options.vat and not descriptor.has("vat"):
		return fail(options.export + ": exported without the vertex animation (bake with --vat)")
	var members = []
	var scene = {}
	if options.members != "":
		scene = read_json(options.members)
		if scene == null:
			return
		if scene.get("format") != "throng-members" or int(scene.get("version", 0)) != 1:
			return fail(options.members + ": not the JSON of `throng render --members`")
		members = scene.members
	else:
		members = grid(descriptor.clips.size())
	for m in members:
		if int(m.model) != 0 or int(m.clip) >= descriptor.clips.size() or int(m.blend_clip) >= descriptor.clips.size():
			return fail("a member plays another model or a clip the export does not have")
	if options.time == null:
		options.time = float(scene.get("time", 0.0))
	crowd_time = options.time

	var mesh = build_mesh(descriptor)
	if mesh == null:
		return
	var multimesh = MultiMesh.new()
	multimesh.transform_format = MultiMesh.TRANSFORM_3D
	multimesh.color_format = MultiMesh.COLOR_FLOAT
	multimesh.custom_data_format = MultiMesh.CUSTOM_DATA_FLOAT
	multimesh.mesh = mesh
	multimesh.instance_count = members.size()
	for i in range(members.size()):
		var m = members[i]
		var r = m.rotation
		var s = float(m.scale)
		var basis = Basis(Quat(r[0], r[1], r[2], r[3])).scaled(Vector3(s, s, s))
		multimesh.set_instance_transform(i, Transform(basis, Vector3(m.position[0], m.position[1], m.position[2])))
		multimesh.set_instance_color(i, Color(m.tint[0], m.tint[1], m.tint[2], m.tint[3]))
		multimesh.set_instance_custom_data(i, Color(int(m.clip) + 4096 * int(m.blend_clip), m.time_offset, m.speed, m.blend))
	var instance = MultiMeshInstance.new()
	instance.multimesh = multimesh
	add_child(instance)

	var light = Vector3(-0.4, -1.0, -0.5)
	if scene.has("light_direction"):
		light = Vector3(scene.light_direction[0], scene.light_direction[1], scene.light_direction[2])
	for material in material_list:
		material.set_shader_param("light_direction", light.normalized())
		material.set_shader_param("ambient", float(scene.get("ambient", 0.35)))
		material.set_shader_param("crowd_time", crowd_time)

	var camera = Camera.new()
	var eye = Vector3(0, 2, 10)
	var target = Vector3(0, 1, 0)
	var up = Vector3.UP
	if scene.has("camera"):
		var c = scene.camera
		eye = Vector3(c.eye[0], c.eye[1], c.eye[2])
		target = Vector3(c.target[0], c.target[1], c.target[2])
		if c.has("up"):
			up = Vector3(c.up[0], c.up[1], c.up[2])
		camera.fov = float(c.fov_y_degrees)
		camera.near = float(c.near)
		camera.far = float(c.far)
	add_child(camera)
	camera.look_at_from_position(eye, target, up)
	camera.current = true

	# throng's background: linear 0.42, 0.55, 0.70, its sRGB bytes (Godot takes colours as sRGB).
	var environment = Environment.new()
	environment.background_mode = Environment.BG_COLOR
	environment.background_color = Color8(173, 196, 218)
	var world = WorldEnvironment.new()
	world.environment = environment
	add_child(world)
	if scene.has("size"):
		OS.window_size = Vector2(scene.size[0], scene.size[1])


func _process(delta: float):
	if options.out == "":
		crowd_time += delta
		for material in material_list:
			material.set_shader_param("crowd_time", crowd_time)
		return
	frame += 1
	if frame < options.frames:
		return
	var image = get_viewport().get_texture().get_data()
	image.flip_y()
	if image.save_png(options.out) != OK:
		return fail(options.out + ": cannot be written" + ("" if options.out.is_abs_path() else " (relative to " + OS.get_current_dir() + "; give an absolute path)"))
	print("godot-crowd: %d members at %.3f s in %s (%dx%d)" % [
		get_child(0).multimesh.instance_count, crowd_time, options.out, image.get_width(), image.get_height()])
	get_tree().quit(0)
	set_process(false)


func read_json(path: String):
	var file = File.new()
	if file.open(path, File.READ) != OK:
		# Godot runs in the project folder (--path): a relative path is taken from there.
		fail(path + ": cannot be opened" + ("" if path.is_abs_path() else " (relative to " + OS.get_current_dir() + "; give an absolute path)"))
		return null
	var parsed = JSON.parse(file.get_as_text())
	file.close()
	if parsed.error != OK or typeof(parsed.result) != TYPE_DICTIONARY:
		fail(path + ": not JSON (" + parsed.error_string + ")")
		return null
	return parsed.result


# Without a members file: 5 x 5 members a metre and a half apart, clips in turn.
func grid(clips: int) -> Array:
	var out = []
	for i in range(25):
		out.append({"model": 0, "position": [(i % 5 - 2) * 1.5, 0.0, (i / 5 - 2) * 1.5], "rotation": [0, 0, 0, 1],
			"scale": 1.0, "clip": i % clips, "blend_clip": 0, "blend": 0.0, "time_offset": i * 0.37, "speed": 1.0,
			"tint": [1, 1, 1, 1]})
	return out


# The mesh with a ShaderMaterial per primitive, the textures the shader reads bound.
func build_mesh(descriptor: Dictionary):
	var reader = ExportMesh.new()
	if not reader.open(options.export.plus_file(descriptor.mesh.file)):
		return fail(reader.error)
	var arrays = reader.vertices()
	if arrays.empty():
		return fail(reader.error)
	var clips = clip_texture(descriptor.clips)
	var animation = null
	var vat = null
	var skin = null
	if options.vat:
		vat = exr_texture(options.export.plus_file(descriptor.vat.file))
		if vat == null:
			return null
	else:
		animation = exr_texture(options.export.plus_file(descriptor.animation.file))
		if animation == null:
			return null
		skin = skin_texture(arrays.joints, arrays.weights)
	var surface = []
	surface.resize(Mesh.ARRAY_MAX)
	for key in [Mesh.ARRAY_VERTEX, Mesh.ARRAY_NORMAL, Mesh.ARRAY_TEX_UV, Mesh.ARRAY_TEX_UV2, Mesh.ARRAY_COLOR]:
		surface[key] = arrays[key]
	var mesh = ArrayMesh.new()
	var shader = load("res://crowd.shader")
	for p in range(reader.gltf.meshes[0].primitives.size()):
		surface[Mesh.ARRAY_INDEX] = reader.indices(p)
		if reader.error != "":
			return fail(reader.error)
		# Uncompressed: UV2 carries vertex indices, exact in 32-bit floats, not in halves.
		mesh.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, surface, [], 0)
		var look = reader.material(p)
		var material = ShaderMaterial.new()
		material.shader = shader
		material.set_shader_param("clips", clips)
		material.set_shader_param("use_vat", options.vat)
		if options.vat:
			material.set_shader_param("vat", vat)
			material.set_shader_param("vat_width", int(descriptor.vat.width))
			material.set_shader_param("rows_per_frame", int(descriptor.vat.rows_per_frame))
		else:
			material.set_shader_param("animation", animation)
			material.set_shader_param("skin", skin)
			material.set_shader_param("skin_width", SKIN_WIDTH)
		# As a Plane: Godot 3 converts a Color given to a shader from sRGB to linear, and glTF's
		# baseColorFactor is linear already.
		material.set_shader_param("base_color", Plane(look.color.r, look.color.g, look.color.b, look.color.a))
		material.set_shader_param("textured", look.texture != null)
		if look.texture != null:
			material.set_shader_param("base_texture", look.texture)
		mesh.surface_set_material(p, material)
		material_list.append(material)
	# Members move away from the bind pose: cull by a box that holds every pose (the bind box
	# grown to twice its size around its centre).
	var b = descriptor.mesh.bind_bounds
	var lo = Vector3(b.min[0], b.min[1], b.min[2])
	var hi = Vector3(b.max[0], b.max[1], b.max[2])
	var size = hi - lo
	var extent = max(size.x, max(size.y, size.z))
	mesh.custom_aabb = AABB((lo + hi) * 0.5 - Vector3.ONE * extent, Vector3.ONE * 2.0 * extent)
	return mesh


# An EXR as linear data: no filtering, no mipmaps, no repeat (the texels are matrices or
# positions). Godot 3's EXR loader keeps 16-bit halves whatever the file holds.
func exr_texture(path: String):
	var image = Image.new()
	if image.load(path) != OK:
		fail(path + ": cannot be read as an EXR image")
		return null
	var texture = ImageTexture.new()
	texture.create_from_image(image, 0)
	return texture


# A texel a clip: duration, frame_count, first_row, loop.
func clip_texture(clips: Array) -> ImageTexture:
	var image = Image.new()
	image.create(clips.size(), 1, false, Image.FORMAT_RGBAF)
	image.lock()
	for c in range(clips.size()):
		var clip = clips[c]
		image.set_pixel(c, 0, Color(clip.duration, clip.frame_count, clip.first_row, 1.0 if clip.loop else 0.0))
	image.unlock()
	var texture = ImageTexture.new()
	texture.create_from_image(image, 0)
	return texture


# Godot 3's spatial shaders see no bone indices or weights: each vertex's JOINTS_0 and WEIGHTS_0
# go into a float texture the shader reads by the vertex's index (UV2.x), 2 texels a vertex.
func skin_texture(joints: Array, weights: Array) -> ImageTexture:
	var vertices = joints.size() / 4
	var rows = int(ceil(2.0 * vertices / SKIN_WIDTH))
	var image = Image.new()
	image.create(SKIN_WIDTH, max(rows, 1), false, Image.FORMAT_RGBAF)
	image.lock()
	for v in range(vertices):
		var i = 2 * v
		image.set_pixel(i % SKIN_WIDTH, i / SKIN_WIDTH, Color(joints[4 * v], joints[4 * v + 1], joints[4 * v + 2], joints[4 * v + 3]))
		image.set_pixel((i + 1) % SKIN_WIDTH, (i + 1) / SKIN_WIDTH, Color(weights[4 * v], weights[4 * v + 1], weights[4 * v + 2], weights[4 * v + 3]))
	image.unlock()
	var texture = ImageTexture.new()
	texture.create_from_image(image, 0)
	return texture
