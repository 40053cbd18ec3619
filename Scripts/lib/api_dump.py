#!/usr/bin/env python3
"""Prepare swift-api-digester dumps for Scripts/api-check.sh.

usage: api_dump.py public RAW.json OUT.json   keep only the public API: drop `package` and internal declarations
                                              (the digester marks them isInternal) and import lists, which differ
                                              between debug and release builds and between platforms
       api_dump.py list PUBLIC.json OUT.txt   one line per public declaration with its signature, indented by
                                              nesting, sorted: the form a reviewer reads in a diff

Neither command decides what is a break; `swift-api-digester -diagnose-sdk` does that on the JSON.
"""
import json
import re
import subprocess
import sys

# Conformances every type has; listing them would only add noise.
IMPLICIT = {"Copyable", "Escapable", "SendableMetatype", "BitwiseCopyable"}


def public_only(node):
    if "children" in node:
        kept = [
            public_only(child)
            for child in node["children"]
            if not child.get("isInternal") and child.get("kind") != "Import"
        ]
        # An extension of another module's type whose members are all package adds nothing public.
        node["children"] = [c for c in kept if not (c.get("isExternal") and not c.get("children"))]
    return node


def type_name(node, module):
    text = node.get("printedName", "")
    text = re.sub(r"\bSwift\.", "", text)
    return re.sub(r"\b" + re.escape(module) + r"\.", "", text)


def parameters(node, module, skip):
    """`label: Type` for each parameter, labels taken from the printed name `f(a:_:)`."""
    labels = re.findall(r"([^(:]*):", node["printedName"].split("(", 1)[1]) if "(" in node["printedName"] else []
    types = node.get("children", [])[skip:]
    parts = []
    for label, child in zip(labels, types):
        text = f"{label}: {type_name(child, module)}"
        if child.get("hasDefaultArg"):
            text += " = default"
        parts.append(text)
    return ", ".join(parts)


def signature(node, module):
    kind = node.get("declKind", node["kind"])
    name = node["printedName"].split("(", 1)[0]
    prefix = "static " if node.get("static") else ""
    if node.get("funcSelfKind") == "Mutating":
        prefix += "mutating "
    children = node.get("children", [])
    effects = " throws" if node.get("throwing") else ""
    if kind == "Func":
        result = type_name(children[0], module) if children else "()"
        arrow = "" if result == "()" else f" -> {result}"
        return f"{prefix}func {name}({parameters(node, module, 1)}){effects}{arrow}"
    if kind == "Constructor":
        optional = "?" if node.get("init_kind") == "Failable" or (children and children[0].get("name") == "Optional") else ""
        return f"init{optional}({parameters(node, module, 1)}){effects}"
    if kind == "Subscript":
        result = type_name(children[0], module) if children else "?"
        return f"{prefix}subscript({parameters(node, module, 1)}) -> {result}"
    if kind == "Var":
        value = type_name(children[0], module) if children else "?"
        setter = any(a.get("accessorKind") == "set" for a in node.get("accessors", []))
        keyword = "let" if node.get("isLet") else "var"
        return f"{prefix}{keyword} {name}: {value}" + (" { get set }" if setter else "")
    if kind == "EnumElement":
        return f"case {node['printedName']}"
    if kind == "TypeAlias":
        target = type_name(children[0], module) if children else "?"
        return f"typealias {name} = {target}"
    if kind == "AssociatedType":
        return f"associatedtype {name}"
    if node.get("isExternal"):
        # Members this module adds to another module's type: name the type in full.
        full = subprocess.run(
            ["swift-demangle", "--compact", node["mangledName"]], capture_output=True, text=True, check=True
        ).stdout.strip()
        return f"extension {full}"
    conformances = [c["name"] for c in node.get("conformances", []) if c["name"] not in IMPLICIT]
    keyword = {"Struct": "struct", "Enum": "enum", "Class": "class", "Protocol": "protocol", "Extension": "extension"}
    text = f"{keyword.get(kind, kind.lower())} {name}"
    if node.get("genericSig") and kind != "Protocol":
        text += node["genericSig"]
    if conformances:
        text += ": " + ", ".join(sorted(conformances))
    return text


def listing(node, module, depth, out):
    lines = []
    for child in node.get("children", []):
        if child.get("kind") in ("TypeNominal", "TypeFunc", "TypeNameAlias", "Accessor") or "declKind" not in child:
            continue
        if child.get("implicit") and child.get("declKind") != "EnumElement":
            continue
        sub = []
        listing(child, module, depth + 1, sub)
        lines.append(("    " * depth + signature(child, module), sub))
    for text, sub in sorted(lines, key=lambda item: item[0].strip()):
        out.append(text)
        out.extend(sub)


def main(argv):
    if len(argv) != 4 or argv[1] not in ("public", "list"):
        sys.stderr.write(__doc__)
        return 64
    with open(argv[2]) as file:
        dump = json.load(file)
    if argv[1] == "public":
        public_only(dump["ABIRoot"])
        with open(argv[3], "w") as file:
            json.dump(dump, file, indent=1)
            file.write("\n")
    else:
        module = dump["ABIRoot"]["name"]
        out = []
        listing(dump["ABIRoot"], module, 0, out)
        with open(argv[3], "w") as file:
            file.write(f"// The public API of {module}, from API/{module}.json (Scripts/api-check.sh --update).\n")
            file.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
