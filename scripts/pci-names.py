#!/usr/bin/env python3
"""Writes src/probe/pci_names.ids: the network and display device names of pci.ids that
rigcheck names NICs and non-NVIDIA GPUs by, so a machine without pci.ids installed (most
servers and containers) and every replay show the same names.

    python3 scripts/pci-names.py /usr/share/misc/pci.ids > src/probe/pci_names.ids

Kept: each listed vendor's device lines whose name says it is a network adapter (Ethernet,
InfiniBand, Wi-Fi, ...) or a GPU (Radeon, Instinct, Arc, Iris, UHD, ...), virtual functions
and audio functions left out, and the subsystem lines the chip's own vendor names (its
reference boards: `1002 0e3a  Radeon RX 6900 XT`). Other vendors' subsystems (OEM boards)
come from the host's pci.ids where it has one.
"""
import re
import sys

NET = re.compile(
    r"Ethernet|Gigabit|GbE|Network|NetXtreme|ConnectX|BlueField|Omni-Path|InfiniBand|Wi-?Fi|"
    r"Wireless|802\.11|WLAN|Virtio|Fast Ethernet|RTL81|10G|25G|40G|50G|100G|200G|400G|Killer|"
    r"AQC|Atlantic|FastLinQ|Connect-?IB|SmartNIC|NIC\b",
    re.I,
)
DISPLAY = re.compile(
    r"Graphics|Radeon|FirePro|FireGL|Instinct|Arc |Iris|UHD|\bXe\b|Navi|Vega|Polaris|"
    r"Data Center GPU|Battlemage|Alchemist|DG[12]|Flex|Ponte Vecchio|GPU|VGA",
    re.I,
)
SKIP = re.compile(r"Audio|HDMI|Bluetooth|Virtual Function|\bVF\b", re.I)
# vendor id: which of its devices are kept
VENDORS = {
    "8086": "both",  # Intel: NICs and GPUs
    "15b3": "net",  # Mellanox / NVIDIA networking
    "14e4": "net",  # Broadcom
    "1002": "display",  # AMD GPUs
    "1af4": "all",  # virtio
    "10ec": "net",  # Realtek
    "1d6a": "all",  # Aquantia (Marvell)
    "11ab": "net",  # Marvell
    "1077": "net",  # QLogic / Marvell FastLinQ
    "1924": "net",  # Solarflare (AMD)
    "1137": "net",  # Cisco VIC
    "8088": "net",  # Wangxun
    "1dd8": "net",  # Pensando (AMD)
    "1425": "net",  # Chelsio
    "19a2": "net",  # Emulex OneConnect
    "1d0f": "net",  # Amazon ENA
    "1ae0": "net",  # Google gVNIC
}


def main(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    version = next((l for l in lines if "Version:" in l), "#\tVersion: unknown").split(":", 1)[1]
    date = next((l for l in lines if "Date:" in l), "#\tDate: unknown").split(":", 1)[1]
    out = [
        f"# Network and display device names of pci.ids Version {version.strip()} (Date {date.strip()}),",
        "# licensed GPL-2.0-or-later or BSD-3-Clause as pci.ids is.",
        "# Made by scripts/pci-names.py from /usr/share/misc/pci.ids: the vendors and device names it",
        "# lists, with the subsystems each vendor names for its own boards. Do not edit by hand.",
    ]
    vendor, keep = None, False
    for line in lines:
        if line.startswith("C "):
            break
        if not line or line.startswith("#"):
            continue
        if not line.startswith("\t"):
            vendor = line[:4] if line[:4] in VENDORS else None
            if vendor:
                out.append(line)
            continue
        if vendor is None:
            continue
        if line.startswith("\t\t"):
            if keep and line[2:6] == vendor:
                out.append(line)
            continue
        name = line[7:]
        mode = VENDORS[vendor]
        if SKIP.search(name):
            keep = False
        elif mode == "all":
            keep = True
        elif mode == "net":
            keep = bool(NET.search(name))
        elif mode == "display":
            keep = bool(DISPLAY.search(name))
        else:
            keep = bool(NET.search(name) or DISPLAY.search(name))
        if keep:
            out.append(line)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/misc/pci.ids")
