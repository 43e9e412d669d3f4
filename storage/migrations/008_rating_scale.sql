-- 008_rating_scale: the rating people see moves to a friendly scale (issue #15): 1000 for a
-- newcomer, 20 for each point of the model's conservative mu - 3 * sigma
-- (kozelbot.ratings.shown). The model's mu and sigma stay as they are; only the shown
-- copies are recomputed.

UPDATE ratings SET rating = CAST(ROUND(1000 + 20 * (mu - 3 * sigma)) AS INTEGER);

UPDATE global_players SET rating = COALESCE((
    SELECT r.rating FROM ratings AS r
    WHERE r.user_id = global_players.user_id AND r.variant = global_players.variant
      AND r.scope = 'group'
), 1000);
