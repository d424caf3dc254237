// A member's colour of a look (issue #25's colour variation; the table's layout and the choice
// at THRONG_LOOK_SALT in shared.h, the CPU's in throng/looks.h lookColor). Expects, before
// inclusion, shared.h and the looks table as `looks` (uint[]).

// The colour (an index) the member of key `key` takes of the look whose record is `record` (not 0).
uint lookPick(uint record, uint key) {
    uint head = looks[record];
    uint pick = throngLookPick(key, head & 0xffu);
    uint count = clamp((head >> 8u) & 0xffu, 1u, THRONG_MAX_LOOK_COLORS);
    for (uint c = 0u; c + 1u < count; ++c)
        if (pick < (looks[record + 2u + 2u * c] >> 16u)) return c;
    return count - 1u;
}

vec3 lookEntry(uint at) { return vec3(unpackHalf2x16(looks[at]), unpackHalf2x16(looks[at + 1u]).x); }

// Colour of the look whose record is `record` (0: none, white) for the member of key `key`.
vec3 lookColor(uint record, uint key) {
    return record == 0u ? vec3(1.0) : lookEntry(record + 1u + 2u * lookPick(record, key));
}

// The layer of the submesh's texture array the member samples: its colour of a look with
// texture variants, else 0.
uint lookLayer(uint record, uint key) {
    return record == 0u || (looks[record] & THRONG_LOOK_TEXTURED) == 0u ? 0u : lookPick(record, key);
}

// The colour an impostor draws: lookColor, times the texture's mean where the look varies it.
vec3 lookFlatColor(uint record, uint key) {
    if (record == 0u) return vec3(1.0);
    uint head = looks[record];
    uint c = lookPick(record, key);
    if ((head & THRONG_LOOK_TEXTURED) == 0u) return lookEntry(record + 1u + 2u * c);
    uint count = clamp((head >> 8u) & 0xffu, 1u, THRONG_MAX_LOOK_COLORS);
    return lookEntry(record + 1u + 2u * count + 2u * c);
}

// The record of look `index` (BakedAsset::looks' order), 0 past the asset's looks.
uint lookRecord(uint index) { return index < looks[0] ? looks[1u + index] : 0u; }
