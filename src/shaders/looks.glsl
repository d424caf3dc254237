// A member's colour of a look (issue #25's colour variation; the table's layout and the choice
// at THRONG_LOOK_SALT in shared.h, the CPU's in throng/looks.h lookColor). Expects, before
// inclusion, shared.h and the looks table as `looks` (uint[]).

// Colour of the look whose record is `record` (0: none, white) for the member of key `key`.
vec3 lookColor(uint record, uint key) {
    if (record == 0u) return vec3(1.0);
    uint head = looks[record];
    uint pick = throngLookPick(key, head & 0xffu);
    uint count = min(head >> 8u, THRONG_MAX_LOOK_COLORS);
    for (uint c = 0u; c < count; ++c) {
        uint rg = looks[record + 1u + 2u * c];
        uint b = looks[record + 2u + 2u * c];
        if (pick < (b >> 16u) || c + 1u == count) return vec3(unpackHalf2x16(rg), unpackHalf2x16(b).x);
    }
    return vec3(1.0);
}

// The record of look `index` (BakedAsset::looks' order), 0 past the asset's looks.
uint lookRecord(uint index) { return index < looks[0] ? looks[1u + index] : 0u; }
