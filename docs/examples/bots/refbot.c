/* refbot: a Deep Six bot in C that speaks deepsix-bot/1 (JSON lines on stdin/stdout).
 *
 * Build:  cc -std=c99 -O2 -o refbot refbot.c
 * Play:   deepsix match ./refbot heuristic --deals 2
 *
 * It needs no JSON library: a small scanner finds a key's value in an object and
 * walks an array, and the bot echoes one of the legal actions back verbatim.
 * Its play is simple and deterministic: pass in the auction, show nothing, declare
 * every meld offered, pass its highest cards, and play its lowest legal card.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Skip whitespace. */
static const char *ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

/* The end of the JSON value that starts at p (NULL if it is malformed). */
static const char *skip(const char *p) {
    p = ws(p);
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1]) p++;
        return *p == '"' ? p + 1 : NULL;
    }
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') {            /* a member: "key": value */
                p = skip(p);
                if (!p) return NULL;
                p = ws(p);
                if (*p != ':') return NULL;
                p++;
            }
            p = skip(p);
            if (!p) return NULL;
            p = ws(p);
            if (*p == ',') { p++; continue; }
            return *p == close ? p + 1 : NULL;
        }
    }
    while (*p && !strchr(",}] \t\r\n", *p)) p++;   /* number, true, false, null */
    return p;
}

/* The value of key in the object at obj: its start, its length in *len (NULL if absent). */
static const char *field(const char *obj, const char *key, size_t *len) {
    size_t klen = strlen(key);
    const char *p = ws(obj);
    if (*p != '{') return NULL;
    p = ws(p + 1);
    while (*p == '"') {
        const char *name = p + 1, *end = skip(p);
        if (!end) return NULL;
        p = ws(end);
        if (*p != ':') return NULL;
        const char *value = ws(p + 1), *after = skip(value);
        if (!after) return NULL;
        if ((size_t)(end - 1 - name) == klen && strncmp(name, key, klen) == 0) {
            *len = (size_t)(after - value);
            return value;
        }
        p = ws(after);
        if (*p != ',') return NULL;
        p = ws(p + 1);
    }
    return NULL;
}

/* Whether the object at obj has "key": "text". */
static int is(const char *obj, const char *key, const char *text) {
    size_t len;
    const char *v = field(obj, key, &len);
    size_t n = strlen(text);
    return v && len == n + 2 && v[0] == '"' && strncmp(v + 1, text, n) == 0;
}

/* The rank of the card of an action ({"card": "7S"}), 0 if it has none. */
static int rank(const char *action) {
    size_t len;
    const char *v = field(action, "card", &len);
    return v && len >= 3 ? v[1] - '0' : 0;
}

/* How much refbot likes an action: it takes the legal action with the highest score. */
static int score(const char *a) {
    if (is(a, "type", "Pass")) return 100;          /* never compete in the auction */
    if (is(a, "type", "Done")) return 50;           /* show nothing; stop melding */
    if (is(a, "type", "DeclareMeld")) return 90;    /* every meld is worth minus points */
    if (is(a, "type", "PassCard")) return rank(a);  /* give away the highest card */
    if (is(a, "type", "PlayCard")) return 10 - rank(a);  /* play the lowest card */
    return 0;                                       /* a bid (when forced), a sunk suit */
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (getline(&line, &cap, stdin) > 0) {
        if (is(line, "type", "hello")) {
            printf("{\"type\":\"ready\",\"protocol\":\"deepsix-bot/1\",\"name\":\"refbot (C)\"}\n");
        } else if (is(line, "type", "decide")) {
            size_t id_len, legal_len;
            const char *id = field(line, "id", &id_len);
            const char *legal = field(line, "legal", &legal_len);
            const char *best = NULL, *p = legal ? ws(legal + 1) : NULL;
            size_t best_len = 0;
            int best_score = -1;
            while (p && *p == '{') {
                const char *end = skip(p);
                if (!end) break;
                int s = score(p);
                if (s > best_score) { best = p; best_len = (size_t)(end - p); best_score = s; }
                p = ws(end);
                p = *p == ',' ? ws(p + 1) : NULL;
            }
            if (!id || !best) return 1;
            printf("{\"type\":\"action\",\"id\":%.*s,\"action\":%.*s}\n",
                   (int)id_len, id, (int)best_len, best);
        } else if (is(line, "type", "quit")) {
            break;
        }
    }
    free(line);
    return 0;
}
