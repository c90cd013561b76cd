"""Generated people for scripts/bench-people: an organisation of N people, written straight into
the database the server made (SQLite file, or PostgreSQL through psql's COPY), replacing the
seeded ones.

Usage: people_data.py sqlite PATH N      people_data.py postgres URL N

Person 1 is the top; person i (i > 1) reports to person (i - 2) // 8 + 1, so every manager has
eight reports and N = 10,000 is six levels deep. Names mix accented and plain spellings, and the
search key is folded as the server folds it (lower case, accents removed), so `q=` finds them.
"""

import csv
import io
import subprocess
import sys
import time
import unicodedata

FIRST = ["Ana", "João", "Zoë", "Amélie", "Björn", "Chloé", "Marek", "Léa", "Ingrid", "Tomasz", "Priya", "Kwame", "Lena",
         "Sofia", "Daniel", "Hannah", "Arjun", "Mei", "Ewa", "Lucas", "Oliver", "Ahmed", "Julia", "Pieter", "Aisha", "Noah",
         "Elena", "Matteo", "Yuki", "Sam", "Carmen", "Finn", "Grace", "Leila", "Nora", "Diego", "Fatima", "Ivo", "René", "Søren"]
LAST = ["Ferreira", "Gonçalves", "Lefèvre", "Durand", "Larsson", "Nakamura", "Dvořák", "Martin", "Halvorsen", "Kowalski",
        "Raman", "Mensah", "Fischer", "Rossi", "Cohen", "Becker", "Mehta", "Lin", "Nowak", "Grant", "Haddad", "Santos",
        "de Vries", "Bello", "Williams", "Popescu", "Ricci", "Tanaka", "Okafor", "López", "Müller", "Kim", "Karimi",
        "Lindqvist", "Herrera", "Zahra", "Petrov", "Olsen", "Oliveira", "Becker"]
TITLES = ["Engineer", "Senior Engineer", "Analyst", "Accountant", "Designer", "Recruiter", "Team Lead", "Manager",
          "Service Desk Analyst", "Security Engineer", "Product Owner", "Technician", "Coordinator", "Consultant"]
DEPARTMENTS = ["Engineering", "Finance", "IT", "People", "Operations", "Sales", "Marketing", "Legal", "Support", "Research"]
LOCATIONS = ["Harbour Building, floor 3", "Harbour Building, floor 4", "StormCell lab, Dock Road", "Remote"]


def fold(text):
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn").lower()


def people(count):
    for i in range(1, count + 1):
        name = f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST)) % len(LAST)]}"
        email = f"{fold(name).replace(' ', '.')}.{i}@brightwater.example"
        title = TITLES[i % len(TITLES)]
        department = DEPARTMENTS[(i // 7) % len(DEPARTMENTS)]
        manager = None if i == 1 else (i - 2) // 8 + 1
        key = fold("\n".join([name, email, title, department]))
        yield (i, name, email, email.lower(), title, department, f"+351 21 555 {i % 10000:04d}",
               LOCATIONS[i % len(LOCATIONS)], manager, key)


def load_sqlite(path, count):
    import sqlite3
    connection = sqlite3.connect(path)
    now = time.time()
    with connection:
        connection.execute("DELETE FROM people")
        connection.executemany(
            "INSERT INTO people (id, name, email, email_key, job_title, department, phone, location, manager_id, user_id, "
            "search_key, revision, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, 1, ?, ?)",
            (row + (now, now) for row in people(count)))
        connection.execute("UPDATE change_revisions SET value = value + 1")
    connection.close()


def load_postgres(url, count):
    # COPY cannot fill constant columns, so each row carries revision 1 and the time.
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    rows = io.StringIO()
    writer = csv.writer(rows, lineterminator="\n")
    for row in people(count):
        writer.writerow(["" if value is None else value for value in row] + [1, stamp, stamp])
    columns = "id, name, email, email_key, job_title, department, phone, location, manager_id, search_key, revision, created_at, updated_at"
    sql = ("BEGIN;\nDELETE FROM people;\n"
           f"\\copy people ({columns}) FROM STDIN WITH (FORMAT csv, NULL '')\n"
           + rows.getvalue() + "\\.\n"
           "SELECT setval(pg_get_serial_sequence('people', 'id'), (SELECT max(id) FROM people));\n"
           "UPDATE change_revisions SET value = value + 1;\nCOMMIT;\nVACUUM ANALYZE people;\n")
    subprocess.run(["psql", url, "-q", "-v", "ON_ERROR_STOP=1"], input=sql, text=True, check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    kind, target, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    (load_sqlite if kind == "sqlite" else load_postgres)(target, count)
