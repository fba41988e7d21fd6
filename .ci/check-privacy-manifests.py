#!/usr/bin/env python3
"""Keeps the app-side targets' privacy manifests true.

Apple asks every SDK to declare, in a PrivacyInfo.xcprivacy it ships, each "required reason" API category it calls
and why (https://developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api). This
script finds the calls of those APIs in every target an app can link (the closure of the app-side products in
Package.swift and in ProntoWalletSDK/Package.swift, read with `swift package dump-package`), and fails when a target
calls a category its manifest does not declare, declares one it does not call, gives a reason Apple does not list
for that category, lacks a key, or does not ship the manifest as a resource.

Usage: python3 .ci/check-privacy-manifests.py   (from the repository root)
"""

import json
import os
import plistlib
import re
import subprocess
import sys

# The products an app never links: pass signing and the server stack (behind the Wallet and Server traits).
SERVER_PRODUCTS = {
    "WalletDocuments", "WalletPasses", "WalletOrders", "WalletGoogle", "WalletServer", "WalletServerTesting",
}

MANIFEST = "PrivacyInfo.xcprivacy"

# Apple's required-reason API categories: what calls them, and the reasons Apple accepts for each.
CATEGORIES = {
    "NSPrivacyAccessedAPICategoryFileTimestamp": {
        "calls": [
            r"\b(?:f|l)?stat(?:at)?\s*\(",
            r"\bf?getattrlist(?:bulk|at)?\s*\(",
            r"\battributesOfItem\s*\(",
            r"\.fileModificationDate\s*\(",
            r"\b(?:creationDate|contentModificationDate|attributeModificationDate)Key\b",
            r"FileAttributeKey\.(?:creationDate|modificationDate)\b",
            r"\[\s*\.(?:creationDate|modificationDate)\s*\]",
        ],
        "reasons": {"DDA9.1", "C617.1", "3B52.1", "0A2A.1"},
    },
    "NSPrivacyAccessedAPICategorySystemBootTime": {
        "calls": [r"\bsystemUptime\b", r"\bmach_absolute_time\s*\("],
        "reasons": {"35F9.1", "8FFB.1", "3D61.1"},
    },
    "NSPrivacyAccessedAPICategoryDiskSpace": {
        "calls": [
            r"\bvolume(?:AvailableCapacity(?:ForImportantUsage|ForOpportunisticUsage)?|TotalCapacity)Key\b",
            r"\bsystem(?:FreeSize|Size)\b",
            r"\bf?stat(?:v)?fs\s*\(",
        ],
        "reasons": {"85F4.1", "E174.1", "7D9E.1", "B728.1"},
    },
    "NSPrivacyAccessedAPICategoryActiveKeyboards": {
        "calls": [r"\bactiveInputModes\b"],
        "reasons": {"3EC4.1", "54BD.1"},
    },
    "NSPrivacyAccessedAPICategoryUserDefaults": {
        "calls": [r"\b(?:NS)?UserDefaults\b", r"@AppStorage\b"],
        "reasons": {"CA92.1", "1C8F.1", "C56D.1", "AC6B.1"},
    },
}

REQUIRED_KEYS = ["NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes",
                 "NSPrivacyAccessedAPITypes"]


def without_comments_and_strings(source):
    """The Swift source with comments and string literals blanked, so that prose never counts as a call."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"""(?:\\.|[^\\])*?"""|"(?:\\.|[^"\\\n])*"', re.DOTALL)
    return pattern.sub(lambda match: "\n" * match.group(0).count("\n"), source)


def calls_in(directory):
    """The categories the Swift files below `directory` call, each with its first call's place."""
    found = {}
    for root, _, files in sorted(os.walk(directory)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as file:
                code = without_comments_and_strings(file.read())
            for category, spec in CATEGORIES.items():
                if category in found:
                    continue
                for call in spec["calls"]:
                    match = re.search(call, code)
                    if match:
                        line = code.count("\n", 0, match.start()) + 1
                        found[category] = f"{path}:{line}: {match.group(0).strip()}"
                        break
    return found


def app_side_targets(package_directory):
    """(name, directory, resources) of every target an app-side product of the package links."""
    manifest = json.loads(subprocess.run(
        ["swift", "package", "--package-path", package_directory, "dump-package"],
        check=True, capture_output=True, text=True).stdout)
    targets = {target["name"]: target for target in manifest["targets"]}
    wanted = [name for product in manifest["products"]
              if "library" in product["type"] and product["name"] not in SERVER_PRODUCTS
              for name in product["targets"]]
    closure = []
    while wanted:
        name = wanted.pop()
        if name in closure or name not in targets:
            continue
        closure.append(name)
        for dependency in targets[name].get("dependencies", []):
            if "byName" in dependency:
                wanted.append(dependency["byName"][0])
            elif "target" in dependency:
                wanted.append(dependency["target"][0])
    result = []
    for name in sorted(closure):
        target = targets[name]
        directory = os.path.join(package_directory, target.get("path") or f"Sources/{name}")
        resources = [os.path.basename(resource["path"]) for resource in target.get("resources", [])]
        result.append((name, os.path.normpath(directory), resources))
    return result


def problems_of(name, directory, resources):
    """What is wrong with one target's manifest, given the calls it makes."""
    calls = calls_in(directory)
    path = os.path.join(directory, MANIFEST)
    if not os.path.exists(path):
        return [f"{name} calls {category} ({place}) but has no {MANIFEST}" for category, place in calls.items()]
    problems = []
    if MANIFEST not in resources:
        problems.append(f"{name}: {MANIFEST} is not among the target's resources in Package.swift")
    with open(path, "rb") as file:
        try:
            manifest = plistlib.load(file)
        except Exception as error:  # plistlib raises several types for a malformed file
            return [f"{path}: not a property list ({error})"]
    problems += [f"{path}: no {key}" for key in REQUIRED_KEYS if key not in manifest]
    if manifest.get("NSPrivacyTracking") is not False:
        problems.append(f"{path}: NSPrivacyTracking must be false (Coffer tracks no one)")
    declared = {}
    for entry in manifest.get("NSPrivacyAccessedAPITypes", []):
        category = entry.get("NSPrivacyAccessedAPIType")
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons", [])
        if category not in CATEGORIES:
            problems.append(f"{path}: unknown category {category}")
            continue
        declared[category] = reasons
        if not reasons:
            problems.append(f"{path}: {category} has no reason")
        for reason in reasons:
            if reason not in CATEGORIES[category]["reasons"]:
                problems.append(f"{path}: {reason} is not a reason Apple lists for {category}")
    for category, place in calls.items():
        if category not in declared:
            problems.append(f"{name} calls {category} ({place}) without declaring it in {path}")
    for category in declared:
        if category not in calls:
            problems.append(f"{path} declares {category}, which {name} does not call")
    if not declared and not manifest.get("NSPrivacyCollectedDataTypes"):
        problems.append(f"{path} declares nothing: a target that calls no such API and collects nothing ships none")
    return problems


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    problems = []
    checked = 0
    for package in [".", "ProntoWalletSDK"]:
        for name, directory, resources in app_side_targets(package):
            target_problems = problems_of(name, directory, resources)
            problems += target_problems
            checked += 1
            if os.path.exists(os.path.join(directory, MANIFEST)) and not target_problems:
                print(f"privacy manifest: {name} declares what it calls")
    for problem in problems:
        print(f"FAIL: {problem}")
    if problems:
        return 1
    print(f"privacy manifests: {checked} app-side targets checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
