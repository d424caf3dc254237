# Reads the mesh that `throng bake --export` writes (mesh.gltf + mesh.bin, docs/EXPORT.md): one
# mesh whose primitives share one set of vertex attributes, 32-bit indices, a base colour and
# maybe an embedded texture per material. Not a general glTF reader: Godot 3 has no glTF import at
# run time, and this is the one layout the export has.
extends Reference

const FLOAT = 5126
const UNSIGNED_INT = 5125
const UNSIGNED_SHORT = 5123
const UNSIGNED_BYTE = 5121
const COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}
const SIZES = {UNSIGNED_BYTE: 1, UNSIGNED_SHORT: 2, UNSIGNED_INT: 4, FLOAT: 4}

var error = ""  # what went wrong, one line; "" when the mesh loaded
var gltf = {}
var bin = StreamPeerBuffer.new()
var bin_size = 0


func open(path: String) -> bool:
	var file = File.new()
	if file.open(path, File.READ) != OK:
		error = path + ": cannot be opened"
		return false
	var parsed = JSON.parse(file.get_as_text())
	file.close()
	if parsed.error != OK or typeof(parsed.result) != TYPE_DICTIONARY:
		error = path + ": not JSON (" + parsed.error_string + ")"
		return false
	gltf = parsed.result
	if not gltf.has("buffers") or gltf.buffers.size() != 1 or not gltf.has("meshes") or gltf.meshes.size() != 1:
		error = path + ": not a mesh of `throng bake --export` (one buffer, one mesh)"
		return false
	var bin_path = path.get_base_dir().plus_file(gltf.buffers[0].uri)
	if file.open(bin_path, File.READ) != OK:
		error = bin_path + ": cannot be opened"
		return false
	bin_size = file.get_len()
	bin.data_array = file.get_buffer(bin_size)
	file.close()
	return true


# The values of accessor `index` as one flat Array (normalized bytes as 0..1).
func accessor(index: int) -> Array:
	var a = gltf.accessors[index]
	var view = gltf.bufferViews[int(a.bufferView)]
	var type = int(a.componentType)
	var components = COMPONENTS[a.type]
	var count = int(a.count)
	var stride = int(view.get("byteStride", components * SIZES[type]))
	var base = int(view.get("byteOffset", 0)) + int(a.get("byteOffset", 0))
	if base + (count - 1) * stride + components * SIZES[type] > bin_size:
		error = "accessor " + str(index) + " reads past the end of the binary buffer"
		return []
	var normalized = a.get("normalized", false)
	var out = []
	out.resize(count * components)
	for i in range(count):
		bin.seek(base + i * stride)
		for c in range(components):
			var value
			if type == FLOAT:
				value = bin.get_float()
			elif type == UNSIGNED_INT:
				value = bin.get_u32()
			elif type == UNSIGNED_SHORT:
				value = bin.get_u16()
			else:
				value = bin.get_u8() / 255.0 if normalized else bin.get_u8()
			out[i * components + c] = value
	return out


# The vertex arrays every primitive shares: Mesh.ARRAY_* -> Pool arrays; UV2.x is the vertex's
# index (_VAT_INDEX), which the shaders address the vertex animation and the skin data by. Also
# "joints" and "weights" (flat Arrays, 4 a vertex). {} on failure (see error).
func vertices() -> Dictionary:
	var attributes = gltf.meshes[0].primitives[0].attributes
	for name in ["POSITION", "NORMAL", "TEXCOORD_0", "COLOR_0", "JOINTS_0", "WEIGHTS_0", "_VAT_INDEX"]:
		if not attributes.has(name):
			error = "the mesh has no " + name + " (an export of throng bake --export has)"
			return {}
	var p = accessor(int(attributes.POSITION))
	var n = accessor(int(attributes.NORMAL))
	var uv = accessor(int(attributes.TEXCOORD_0))
	var color = accessor(int(attributes.COLOR_0))
	var joints = accessor(int(attributes.JOINTS_0))
	var weights = accessor(int(attributes.WEIGHTS_0))
	var index = accessor(int(attributes._VAT_INDEX))
	if error != "":
		return {}
	var count = index.size()
	var positions = PoolVector3Array()
	var normals = PoolVector3Array()
	var uvs = PoolVector2Array()
	var uv2s = PoolVector2Array()
	var colors = PoolColorArray()
	positions.resize(count)
	normals.resize(count)
	uvs.resize(count)
	uv2s.resize(count)
	colors.resize(count)
	for v in range(count):
		positions[v] = Vector3(p[3 * v], p[3 * v + 1], p[3 * v + 2])
		normals[v] = Vector3(n[3 * v], n[3 * v + 1], n[3 * v + 2])
		uvs[v] = Vector2(uv[2 * v], uv[2 * v + 1])
		uv2s[v] = Vector2(index[v], 0.0)
		colors[v] = Color(color[4 * v], color[4 * v + 1], color[4 * v + 2], color[4 * v + 3])
	return {
		Mesh.ARRAY_VERTEX: positions, Mesh.ARRAY_NORMAL: normals, Mesh.ARRAY_TEX_UV: uvs,
		Mesh.ARRAY_TEX_UV2: uv2s, Mesh.ARRAY_COLOR: colors, "joints": joints, "weights": weights,
	}


# Primitive `i`'s triangles, wound clockwise as Godot's front faces are (glTF's are
# counter-clockwise).
func indices(i: int) -> PoolIntArray:
	var flat = accessor(int(gltf.meshes[0].primitives[i].indices))
	var out = PoolIntArray()
	out.resize(flat.size())
	for t in range(0, flat.size() - 2, 3):
		out[t] = flat[t]
		out[t + 1] = flat[t + 2]
		out[t + 2] = flat[t + 1]
	return out


# Primitive `i`'s material: {"color": Color, "texture": ImageTexture or null}.
func material(i: int) -> Dictionary:
	var primitive = gltf.meshes[0].primitives[i]
	var out = {"color": Color(1, 1, 1, 1), "texture": null}
	if not primitive.has("material"):
		return out
	var pbr = gltf.materials[int(primitive.material)].get("pbrMetallicRoughness", {})
	var f = pbr.get("baseColorFactor", [1, 1, 1, 1])
	out.color = Color(f[0], f[1], f[2], f[3])
	if pbr.has("baseColorTexture"):
		var image_info = gltf.images[int(gltf.textures[int(pbr.baseColorTexture.index)].source)]
		var view = gltf.bufferViews[int(image_info.bufferView)]
		var bytes = bin.data_array.subarray(int(view.get("byteOffset", 0)), int(view.get("byteOffset", 0)) + int(view.byteLength) - 1)
		var image = Image.new()
		var loaded = image.load_png_from_buffer(bytes) if image_info.mimeType == "image/png" else image.load_jpg_from_buffer(bytes)
		if loaded == OK:
			var texture = ImageTexture.new()
			texture.create_from_image(image, Texture.FLAG_FILTER | Texture.FLAG_REPEAT | Texture.FLAG_MIPMAPS)
			out.texture = texture
	return out
