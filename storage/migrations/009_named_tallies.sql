-- 009_named_tallies: each family's counts by name, not as shared columns (issue #16).
--
-- Migration 006 made the follow-suit family's counts (catches, egg deals, Lyusyas,
-- hand-offs) into columns of `match_players` and `player_totals`, so a new family's counts
-- would need a migration of shared tables. Every family counts what it likes by name now
-- (`kozelbot.game.Family.tally_keys`): `player_totals` keeps the counts every family has
-- (deals, card points, time-outs) and `player_tallies` the rest, one row per name with a
-- count above zero; a match seat's own counts go into `match_players.tallies` as a JSON
-- object. Every existing count is kept.

CREATE TABLE player_tallies (
    user_id    INTEGER NOT NULL,
    scope      TEXT    NOT NULL CHECK (scope IN ('group', 'private')),
    variant    TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    count      INTEGER NOT NULL,
    PRIMARY KEY (user_id, scope, variant, name)
) WITHOUT ROWID;

INSERT INTO player_tallies (user_id, scope, variant, name, count)
    SELECT user_id, scope, variant, 'catches', catches FROM player_totals WHERE catches > 0
    UNION ALL
    SELECT user_id, scope, variant, 'eggs', eggs FROM player_totals WHERE eggs > 0
    UNION ALL
    SELECT user_id, scope, variant, 'lyusyas', lyusyas FROM player_totals WHERE lyusyas > 0
    UNION ALL
    SELECT user_id, scope, variant, 'handoffs', handoffs FROM player_totals WHERE handoffs > 0;

ALTER TABLE match_players ADD COLUMN tallies TEXT NOT NULL DEFAULT '{}';
UPDATE match_players SET tallies = (
    SELECT COALESCE(json_group_object(name, n), '{}') FROM (
        SELECT 'catches' AS name, match_players.catches AS n
        UNION ALL SELECT 'eggs', match_players.eggs
        UNION ALL SELECT 'lyusyas', match_players.lyusyas
        UNION ALL SELECT 'handoffs', match_players.handoffs
    ) WHERE n > 0
);

ALTER TABLE match_players DROP COLUMN catches;
ALTER TABLE match_players DROP COLUMN eggs;
ALTER TABLE match_players DROP COLUMN lyusyas;
ALTER TABLE match_players DROP COLUMN handoffs;
ALTER TABLE player_totals DROP COLUMN catches;
ALTER TABLE player_totals DROP COLUMN eggs;
ALTER TABLE player_totals DROP COLUMN lyusyas;
ALTER TABLE player_totals DROP COLUMN handoffs;
